package io.mdgate.ingress;

import io.mdgate.core.nativelib.NativeLibraryLoader;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NativeLibraryLoaderTest
{
    @Test
    void shouldNameThePlatformAsTheNativeBuildDoes()
    {
        final String arch = System.getProperty("os.arch");
        final String expected = "amd64".equals(arch) ? "x86_64" : arch;

        assertEquals("linux-" + expected, NativeLibraryLoader.platform());
        assertEquals("META-INF/native/linux-" + expected + "/libmdgate-dpdk.so",
            NativeLibraryLoader.resourcePath("mdgate-dpdk"));
    }

    @Test
    void shouldSayWhereItLookedWhenALibraryIsNowhere()
    {
        final UnsatisfiedLinkError error = assertThrows(
            UnsatisfiedLinkError.class, () -> NativeLibraryLoader.load("mdgate-absent", DpdkNative.class));

        final String message = error.getMessage();
        assertTrue(message.contains("java.library.path"), message);
        assertTrue(message.contains(NativeLibraryLoader.resourcePath("mdgate-absent")), message);
        assertEquals(1, error.getSuppressed().length);
    }

    @Test
    void shouldExtractTheLibraryFromAJarAndLeaveNoFileBehind(@TempDir final Path tmp) throws Exception
    {
        final Path jar = jarOf(classesDirectory(), tmp.resolve("dpdk-ingress.jar"));
        final Path workdir = Files.createDirectory(tmp.resolve("work"));
        final String previous = System.getProperty(NativeLibraryLoader.WORKDIR_PROPERTY);
        System.setProperty(NativeLibraryLoader.WORKDIR_PROPERTY, workdir.toString());
        // The isolated loader sees the module's jar and the shared loader's classes (gateway-core), nothing else.
        final URL loaderClasses = NativeLibraryLoader.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader isolated = new URLClassLoader(
            new URL[] { jar.toUri().toURL(), loaderClasses }, ClassLoader.getPlatformClassLoader()))
        {
            final Class<?> dpdkNative = Class.forName(DpdkNative.class.getName(), true, isolated);

            assertEquals(Boolean.TRUE, call(dpdkNative, "isAvailable"), () -> cause(dpdkNative));
            final String source = (String)call(dpdkNative, "librarySource");
            assertTrue(source.startsWith("jar:" + jar.toUri().toURL()), source);
            assertTrue(((String)call(dpdkNative, "rteVersion")).startsWith("DPDK "));
            try (Stream<Path> left = Files.list(workdir))
            {
                assertEquals(List.of(), left.collect(Collectors.toList()));
            }
        }
        finally
        {
            if (null == previous)
            {
                System.clearProperty(NativeLibraryLoader.WORKDIR_PROPERTY);
            }
            else
            {
                System.setProperty(NativeLibraryLoader.WORKDIR_PROPERTY, previous);
            }
        }
    }

    private static Object call(final Class<?> type, final String method) throws ReflectiveOperationException
    {
        final Method m = type.getMethod(method);
        return m.invoke(null);
    }

    private static String cause(final Class<?> type)
    {
        try
        {
            return String.valueOf(call(type, "unavailabilityCause"));
        }
        catch (final ReflectiveOperationException ex)
        {
            return ex.toString();
        }
    }

    private static Path classesDirectory() throws Exception
    {
        return Path.of(DpdkNative.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static Path jarOf(final Path classes, final Path jar) throws IOException
    {
        try (Stream<Path> files = Files.walk(classes);
            JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)))
        {
            for (final Path file : (Iterable<Path>)files.filter(Files::isRegularFile)::iterator)
            {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
        return jar;
    }

}
