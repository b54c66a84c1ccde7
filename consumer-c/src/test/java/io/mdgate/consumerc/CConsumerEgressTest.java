package io.mdgate.consumerc;

/** The scenarios of {@link CConsumerScenarios} with the release build of the library and mdgate-consume-c. */
class CConsumerEgressTest extends CConsumerScenarios
{
    @Override
    NativeBuild build()
    {
        return NativeBuild.RELEASE;
    }
}
