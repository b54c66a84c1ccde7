package io.mdgate.core.nativelib;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads a JNI library of the project: first from {@code java.library.path} (an installed copy wins), else from
 * the class path under {@code META-INF/native/<os>-<arch>/}, extracting it to a temporary file when it sits
 * inside a jar. Used once per library from a static initializer; not for concurrent use.
 */
public final class NativeLibraryLoader
{
    public static final String RESOURCE_ROOT = "META-INF/native/";
    public static final String WORKDIR_PROPERTY = "mdgate.native.workdir";

    private NativeLibraryLoader()
    {
    }

    /**
     * Loads the library {@code name} (as in {@link System#loadLibrary(String)}) for {@code owner}'s class loader.
     *
     * @return where the library was loaded from, for messages.
     * @throws UnsatisfiedLinkError naming every place that was tried, with the individual failures suppressed.
     */
    public static String load(final String name, final Class<?> owner)
    {
        try
        {
            System.loadLibrary(name);
            return "java.library.path";
        }
        catch (final UnsatisfiedLinkError fromLibraryPath)
        {
            final String resource = resourcePath(name);
            final URL url = owner.getClassLoader().getResource(resource);
            if (null == url)
            {
                final UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    System.mapLibraryName(name) + " is neither on java.library.path (" +
                    System.getProperty("java.library.path") + ") nor on the class path as " + resource);
                error.addSuppressed(fromLibraryPath);
                throw error;
            }

            try
            {
                return loadResource(url, name);
            }
            catch (final UnsatisfiedLinkError | IOException | URISyntaxException ex)
            {
                final UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    "cannot load " + url + ": " + ex.getMessage());
                error.initCause(ex);
                error.addSuppressed(fromLibraryPath);
                throw error;
            }
        }
    }

    /** The class-path location of a library for this platform, e.g. {@code META-INF/native/linux-x86_64/libx.so}. */
    public static String resourcePath(final String name)
    {
        return RESOURCE_ROOT + platform() + "/" + System.mapLibraryName(name);
    }

    /** {@code <os>-<arch>} as the native build names it ({@code uname -s}, {@code uname -m}): linux-x86_64. */
    public static String platform()
    {
        final String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        final String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        switch (arch)
        {
            case "amd64":
            case "x86_64":
                return os + "-x86_64";
            case "arm64":
            case "aarch64":
                return os + "-aarch64";
            default:
                return os + "-" + arch;
        }
    }

    private static String loadResource(final URL url, final String name) throws IOException, URISyntaxException
    {
        if ("file".equals(url.getProtocol()))
        {
            final Path file = Path.of(url.toURI());
            System.load(file.toString());
            return file.toString();
        }

        final Path dir = Path.of(System.getProperty(WORKDIR_PROPERTY, System.getProperty("java.io.tmpdir")));
        final Path copy = Files.createTempFile(dir, System.mapLibraryName(name) + ".", ".tmp");
        try
        {
            try (InputStream in = url.openStream())
            {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            try
            {
                System.load(copy.toString());
            }
            catch (final UnsatisfiedLinkError ex)
            {
                throw new UnsatisfiedLinkError(ex.getMessage() + " (extracted to " + dir +
                    "; if that file system is mounted noexec, set -D" + WORKDIR_PROPERTY + "=DIR)");
            }
            return url.toString();
        }
        finally
        {
            // Once mapped, the library no longer needs its file; nothing is left behind in the temp folder.
            Files.deleteIfExists(copy);
        }
    }
}
