package io.mdgate.ingress;

import io.mdgate.core.nativelib.NativeLibraryLoader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DpdkNativeTest
{
    @Test
    void shouldLoadTheNativeLibraryBuiltByThisBuild()
    {
        assertTrue(DpdkNative.isAvailable(), () -> "unavailable: " + DpdkNative.unavailabilityCause());
        assertNull(DpdkNative.unavailabilityCause());
        assertDoesNotThrow(DpdkNative::ensureAvailability);
        assertTrue(DpdkNative.librarySource().endsWith(NativeLibraryLoader.resourcePath(DpdkNative.LIBRARY_NAME)),
            DpdkNative.librarySource());
    }

    @Test
    void shouldReportTheDpdk2211RuntimeThatPkgConfigDescribes() throws IOException, InterruptedException
    {
        final String version = DpdkNative.rteVersion();

        assertTrue(version.startsWith("DPDK 22.11"), version);
        assertEquals("DPDK " + pkgConfigModversion(), version);
    }

    @Test
    void shouldImplementTheAbiVersionTheJavaSideExpects()
    {
        assertEquals(DpdkNative.ABI_VERSION, DpdkNative.abiVersion());
    }

    @Test
    void shouldRefuseALibraryThatImplementsAnotherAbiVersion()
    {
        final UnsatisfiedLinkError error = assertThrows(
            UnsatisfiedLinkError.class,
            () -> DpdkNative.checkAbiVersion(DpdkNative.ABI_VERSION + 1, "/opt/old/libmdgate-dpdk.so"));

        final String message = error.getMessage();
        assertTrue(message.contains("/opt/old/libmdgate-dpdk.so"), message);
        assertTrue(message.contains("version " + (DpdkNative.ABI_VERSION + 1)), message);
        assertTrue(message.contains("needs version " + DpdkNative.ABI_VERSION), message);
        assertDoesNotThrow(() -> DpdkNative.checkAbiVersion(DpdkNative.ABI_VERSION, "x"));
    }

    private static String pkgConfigModversion() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("pkg-config", "--modversion", "libdpdk")
            .redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "pkg-config did not finish");
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
