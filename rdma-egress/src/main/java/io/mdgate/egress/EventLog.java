package io.mdgate.egress;

/**
 * Where the publisher and the consumer SDK report events worth an operator's attention (a consumer refused, a
 * session timed out, a lap). Called off the tick path only; must not block for long. The default prints to
 * standard error.
 */
@FunctionalInterface
public interface EventLog
{
    EventLog STDERR = message -> System.err.println("mdgate egress: " + message);

    void log(String message);
}
