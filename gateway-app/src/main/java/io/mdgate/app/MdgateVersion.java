package io.mdgate.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import io.mdgate.ingress.DpdkNative;
import picocli.CommandLine.IVersionProvider;

/**
 * The lines of {@code mdgate --version}: the mdgate build, the Java runtime, and the DPDK runtime as seen through
 * the project's JNI library (or why it is unavailable). Stateless.
 */
final class MdgateVersion implements IVersionProvider
{
    static final String RESOURCE = "version.properties";

    @Override
    public String[] getVersion()
    {
        return new String[] {
            "mdgate " + projectVersion(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
            escape(dpdk()) };
    }

    static String projectVersion()
    {
        try (InputStream in = MdgateVersion.class.getResourceAsStream(RESOURCE))
        {
            if (null == in)
            {
                throw new IllegalStateException(RESOURCE + " is missing from the class path: rebuild gateway-app");
            }
            final Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String dpdk()
    {
        if (!DpdkNative.isAvailable())
        {
            return "DPDK unavailable: " + DpdkNative.unavailabilityCause().getMessage();
        }
        return DpdkNative.rteVersion() + " (lib" + DpdkNative.LIBRARY_NAME + " native ABI " +
            DpdkNative.abiVersion() + ")";
    }

    // picocli formats version lines; a '%' in a message must not be taken for a format specifier.
    private static String escape(final String line)
    {
        return line.replace("%", "%%");
    }
}
