package io.mdgate.app;

import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Refuses an output path a command could not write, before any work starts, so a long replay or simulation does
 * not fail at its end: a usage error ({@link ExitCodes#USAGE}) naming the option, the path and what would be right.
 * Stateless.
 */
public final class OutputPaths
{
    private OutputPaths()
    {
    }

    /**
     * Checks an output file: not a directory, in a directory that exists and that this user may write.
     *
     * @param commandLine the command, for the usage error.
     * @param option      the option that names it, e.g. {@code --out}.
     * @param file        the file to be written; null (stdout) is always fine.
     * @throws ParameterException saying what is wrong with the path.
     */
    public static void checkFile(final CommandLine commandLine, final String option, final Path file)
    {
        if (null == file || "-".equals(file.toString()))
        {
            return;
        }
        if (Files.isDirectory(file))
        {
            throw refused(commandLine, option, file, "is a directory; give a file");
        }
        checkParent(commandLine, option, file);
    }

    /**
     * Checks an output directory that the command creates when it is missing: not a file, and either there and
     * writable or with a nearest existing ancestor that is a writable directory.
     *
     * @param commandLine the command, for the usage error.
     * @param option      the option that names it.
     * @param directory   the directory to be written into.
     * @throws ParameterException saying what is wrong with the path.
     */
    public static void checkDirectory(final CommandLine commandLine, final String option, final Path directory)
    {
        if (Files.exists(directory) && !Files.isDirectory(directory))
        {
            throw refused(commandLine, option, directory, "is a file; give a directory");
        }
        if (Files.isDirectory(directory))
        {
            if (!Files.isWritable(directory))
            {
                throw refused(commandLine, option, directory, "is not writable by this user; give another " +
                    "directory");
            }
            return;
        }
        checkAncestor(commandLine, option, directory);
    }

    /** A file's directory must exist: writers do not create it. */
    private static void checkParent(final CommandLine commandLine, final String option, final Path file)
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (null == parent)
        {
            return;
        }
        if (!Files.isDirectory(parent))
        {
            throw refused(commandLine, option, file, "cannot be created: " + parent + (Files.exists(parent) ?
                " is not a directory" : " does not exist") + "; give a path in a directory that exists");
        }
        if (!Files.isWritable(parent))
        {
            throw refused(commandLine, option, file, "cannot be created: " + parent + " is not writable by this " +
                "user; give a path in a directory it may write");
        }
    }

    /** A directory created with its parents needs its nearest existing ancestor to be a writable directory. */
    private static void checkAncestor(final CommandLine commandLine, final String option, final Path directory)
    {
        Path ancestor = directory.toAbsolutePath().getParent();
        while (null != ancestor && !Files.exists(ancestor))
        {
            ancestor = ancestor.getParent();
        }
        if (null == ancestor)
        {
            return;
        }
        if (!Files.isDirectory(ancestor))
        {
            throw refused(commandLine, option, directory, "cannot be created: " + ancestor + " is a file; give a " +
                "path under a directory");
        }
        if (!Files.isWritable(ancestor))
        {
            throw refused(commandLine, option, directory, "cannot be created: " + ancestor + " is not writable " +
                "by this user; give a path it may write");
        }
    }

    private static ParameterException refused(
        final CommandLine commandLine, final String option, final Path path, final String why)
    {
        return new ParameterException(commandLine, option + " " + path + " " + why);
    }
}
