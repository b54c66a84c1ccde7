package io.mdgate.consumerc;

/**
 * The scenarios of {@link CConsumerScenarios} with the AddressSanitizer + UBSan build: the same assertions, and any
 * sanitizer report (memory error, leak, undefined behaviour) on a consumer's standard error fails the test.
 */
class CConsumerSanitizedEgressTest extends CConsumerScenarios
{
    @Override
    NativeBuild build()
    {
        return NativeBuild.SANITIZE;
    }
}
