package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.TransportResult;

/**
 * Maps the library's negative errno results onto {@link TransportResult} codes, and set-up failures onto text.
 */
final class VerbsResults
{
    private VerbsResults()
    {
    }

    /** @return the transport code of a hot-path native result (0 or a negative errno). */
    static int toTransportResult(final int result)
    {
        if (result >= 0)
        {
            return TransportResult.OK;
        }
        switch (-result)
        {
            case VerbsNative.EAGAIN:
                return TransportResult.BACK_PRESSURED;
            case VerbsNative.EMSGSIZE:
                return TransportResult.TOO_LONG;
            default:
                return TransportResult.NOT_CONNECTED;
        }
    }

    /** @return the description of a failed set-up call: what failed and the errno text. */
    static String describe(final long result)
    {
        final String detail = VerbsNative.lastError();
        final String text = VerbsNative.errorText((int)-result);
        return null == detail || detail.isEmpty() ? text : detail + " [" + text + "]";
    }
}
