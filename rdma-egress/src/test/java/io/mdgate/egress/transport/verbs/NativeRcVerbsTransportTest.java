package io.mdgate.egress.transport.verbs;

/**
 * {@link VerbsTransportTest}'s primitives over the project's own RC library ({@code rdma_rc = "native"}), the
 * configuration choice beside DiSNI, so that both stay proven on the same device.
 */
class NativeRcVerbsTransportTest extends VerbsTransportTest
{
    @Override
    VerbsContext.Rc rc()
    {
        return VerbsContext.Rc.NATIVE;
    }
}
