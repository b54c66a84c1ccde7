package io.mdgate.egress.transport.verbs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Finds and loads {@code libmdgate-verbs}: {@code java.library.path} first (an installed copy wins), else the class
 * path under {@code META-INF/native/<os>-<arch>/}, extracted to a temporary file (removed once mapped) when it sits
 * in a jar. Used once from {@link VerbsNative}'s static initializer.
 */
final class VerbsLibraryLoader
{
    static final String WORKDIR_PROPERTY = "mdgate.native.workdir";

    private VerbsLibraryLoader()
    {
    }

    /**
     * @return where the library came from, for messages.
     * @throws UnsatisfiedLinkError listing what was tried.
     */
    static String load(final String name, final Class<?> owner)
    {
        try
        {
            System.loadLibrary(name);
            return "java.library.path";
        }
        catch (final UnsatisfiedLinkError notOnPath)
        {
            final String resource = "META-INF/native/" + platform() + "/" + System.mapLibraryName(name);
            final URL url = owner.getClassLoader().getResource(resource);
            if (null == url)
            {
                final UnsatisfiedLinkError error = new UnsatisfiedLinkError(System.mapLibraryName(name) +
                    " is neither on java.library.path (" + System.getProperty("java.library.path") +
                    ") nor on the class path as " + resource);
                error.addSuppressed(notOnPath);
                throw error;
            }
            try
            {
                return fromUrl(url, name);
            }
            catch (final IOException | URISyntaxException | UnsatisfiedLinkError ex)
            {
                final UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot load " + url + ": " +
                    ex.getMessage());
                error.initCause(ex);
                error.addSuppressed(notOnPath);
                throw error;
            }
        }
    }

    /** {@code <os>-<arch>} as {@code uname -s}-{@code uname -m} name it, e.g. linux-x86_64. */
    static String platform()
    {
        final String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        final String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if ("amd64".equals(arch) || "x86_64".equals(arch))
        {
            return os + "-x86_64";
        }
        if ("arm64".equals(arch) || "aarch64".equals(arch))
        {
            return os + "-aarch64";
        }
        return os + "-" + arch;
    }

    private static String fromUrl(final URL url, final String name) throws IOException, URISyntaxException
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
            System.load(copy.toString());
            return url.toString();
        }
        finally
        {
            Files.deleteIfExists(copy);
        }
    }
}
