package io.mdgate.runtime;

/**
 * The reason an operator needs from an exception: past the wrappers the agent framework adds (Agrona's
 * {@code CompositeAgent} reports an agent's failure to start as "underlying agent error on start", with the real
 * exception only as a suppressed one) and past causes re-thrown with their cause's text, to the first exception that
 * says something of its own. Threading: any.
 */
final class Causes
{
    private static final int MAX_DEPTH = 16;

    private Causes()
    {
    }

    /** @return the message of the innermost exception that says why, or the exception itself when none does. */
    static String reason(final Throwable throwable)
    {
        Throwable current = throwable;
        for (int depth = 0; depth < MAX_DEPTH && isWrapper(current); depth++)
        {
            final Throwable[] suppressed = current.getSuppressed();
            current = suppressed.length > 0 ? suppressed[0] : current.getCause();
        }
        return current.getMessage() == null || current.getMessage().isBlank() ? current.toString() :
            current.getMessage();
    }

    private static boolean isWrapper(final Throwable throwable)
    {
        final String message = throwable.getMessage();
        final Throwable cause = throwable.getCause();
        final boolean hasInner = throwable.getSuppressed().length > 0 || cause != null;
        return hasInner && (message == null || message.contains("CompositeAgent: underlying agent error") ||
            (cause != null && message.equals(cause.toString())));
    }
}
