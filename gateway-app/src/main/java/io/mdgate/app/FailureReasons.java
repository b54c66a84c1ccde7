package io.mdgate.app;

import java.io.FileNotFoundException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Java's I/O exceptions in an operator's words: the path first, what is wrong with it and what to do, never the
 * exception's class name or a bare path (a {@link NoSuchFileException}'s message is only the path). Stateless.
 */
public final class FailureReasons
{
    /** How java.io ends the message of a {@link FileNotFoundException} for a directory. */
    private static final String IS_A_DIRECTORY = " (Is a directory)";

    private FailureReasons()
    {
    }

    /**
     * @return what is wrong with a path and the fix, or null when the failure is not about a named path.
     */
    public static String pathProblem(final Throwable ex)
    {
        if (ex instanceof FileNotFoundException && null != ex.getMessage() &&
            ex.getMessage().endsWith(IS_A_DIRECTORY))
        {
            final String message = ex.getMessage();
            return message.substring(0, message.length() - IS_A_DIRECTORY.length()) +
                " is a directory; give the path of a file";
        }
        if (ex instanceof FileNotFoundException)
        {
            // java.io says "PATH (No such file or directory)" or "PATH (Is a directory)".
            return "cannot open " + ex.getMessage() + "; give the path of a file that exists";
        }
        if (ex instanceof CharacterCodingException)
        {
            return "a file it reads is not UTF-8 text (" + ex.getClass().getSimpleName() + "); give a text file";
        }
        if (!(ex instanceof FileSystemException fs))
        {
            return null;
        }
        final String path = fs.getFile();
        if (ex instanceof NoSuchFileException)
        {
            return path + ": no such file or directory; give a path that exists";
        }
        if (ex instanceof FileAlreadyExistsException)
        {
            return path + " already exists; remove it or give another path";
        }
        if (ex instanceof AccessDeniedException)
        {
            return path + ": permission denied; give a path this user may use";
        }
        if (ex instanceof NotDirectoryException)
        {
            return path + " is not a directory; give a directory";
        }
        if (ex instanceof DirectoryNotEmptyException)
        {
            return path + " is a directory that is not empty; give another path";
        }
        return null == fs.getReason() ? null : path + ": " + fs.getReason() + "; give another path";
    }

    /**
     * @return the first message along the chain of causes, or the exception's type when none has one.
     */
    public static String describe(final Throwable ex)
    {
        for (Throwable t = ex; null != t; t = t.getCause())
        {
            final String pathReason = pathProblem(t);
            if (null != pathReason)
            {
                return pathReason;
            }
            if (null != t.getMessage() && !t.getMessage().isBlank())
            {
                return t.getMessage();
            }
        }
        return ex.getClass().getSimpleName();
    }
}
