package io.mdgate.egress.transport.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerbsNativeTest
{
    @Test
    void shouldLoadTheLibraryBuiltByThisModuleWithoutAnRdmaDevice()
    {
        assertTrue(VerbsNative.isAvailable(), () -> "not available: " + VerbsNative.unavailabilityCause());
        assertEquals(VerbsNative.ABI_VERSION, VerbsNative.abiVersion());
    }

    @Test
    void shouldRefuseALibraryOfAnotherAbiVersionNamingBothVersions()
    {
        final UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class,
            () -> VerbsNative.check(VerbsNative.ABI_VERSION + 1, VerbsNative.STRUCT_SIZES.clone(), "test"));
        assertTrue(error.getMessage().contains("version " + (VerbsNative.ABI_VERSION + 1)), error.getMessage());
        assertTrue(error.getMessage().contains("needs version " + VerbsNative.ABI_VERSION), error.getMessage());
    }

    @Test
    void shouldRefuseALibraryBuiltWithOtherStructSizesNamingTheStruct()
    {
        final int[] sizes = VerbsNative.STRUCT_SIZES.clone();
        sizes[0] = 136;
        final UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class,
            () -> VerbsNative.check(VerbsNative.ABI_VERSION, sizes, "test"));
        assertTrue(error.getMessage().contains("ibv_send_wr is 136 bytes, expected 128"), error.getMessage());
    }

    @Test
    void shouldAcceptTheExpectedAbiAndSizes()
    {
        VerbsNative.check(VerbsNative.ABI_VERSION, VerbsNative.STRUCT_SIZES.clone(), "test");
    }
}
