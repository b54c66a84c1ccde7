package io.mdgate.runtime.config;

import io.mdgate.egress.transport.verbs.VerbsContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code [egress] rdma_rc}: the library of the verbs transport's RC path, DiSNI unless told otherwise. */
class RdmaRcConfigTest
{
    @Test
    void shouldRunTheRcPathOnDisniByDefault()
    {
        assertEquals(VerbsContext.Rc.DISNI, ConfigLoader.parse(ConfigLoaderTest.MINIMAL).egress().rdmaRc());
    }

    @Test
    void shouldReadTheProjectsOwnLibraryAsTheOtherChoice()
    {
        final GatewayConfig.Egress egress =
            ConfigLoader.parse(ConfigLoaderTest.MINIMAL + "\n[egress]\nrdma_rc = \"native\"\n").egress();

        assertEquals(VerbsContext.Rc.NATIVE, egress.rdmaRc());
    }

    @Test
    void shouldRefuseALibraryItDoesNotKnowSayingWhatWouldBeRight()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[egress]\nrdma_rc = \"libibverbs\"\n";

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
        assertTrue(ex.getMessage().contains("egress.rdma_rc") && ex.getMessage().contains("\"disni\"") &&
            ex.getMessage().contains("\"native\"") && ex.getMessage().contains("libibverbs"), ex.getMessage());
    }
}
