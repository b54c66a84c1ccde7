package io.mdgate.journal;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The process {@link JournalCrashTest} kills: opens a journal, reports the first sequence it will journal
 * ({@code start N}), then publishes ticks (derived from their sequence by {@link TestTicks}) as fast as the journal
 * takes them, printing the journaled sequence it has reached ({@code journaled N}) as it goes. Given a last
 * sequence it stops there, closes the journal cleanly and prints {@code done N}; without one it runs until killed.
 * <p>
 * Arguments: journal directory [last sequence].
 */
public final class CrashingJournalProcess
{
    private CrashingJournalProcess()
    {
    }

    public static void main(final String[] args)
    {
        final Path directory = Path.of(args[0]);
        final long last = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
        final PrintStream out = System.out;
        final TestTicks ticks = new TestTicks();
        try (TickJournal journal = TickJournal.open(new JournalContext().directory(directory)))
        {
            final long first = journal.nextGatewaySequence();
            out.println("start " + first);
            out.flush();
            final AgentRunner runner = new AgentRunner(
                new BackoffIdleStrategy(), Throwable::printStackTrace, null, journal.agent());
            AgentRunner.startOnThread(runner);
            final JournalPublisher publisher = journal.publisher();
            long reported = -1;
            for (long sequence = first; sequence <= last; sequence++)
            {
                publisher.onTick(ticks.tick(sequence), 0);
                if ((sequence & 1023) == 0)
                {
                    final long journaled = journal.journaledSequence();
                    if (journaled != reported)
                    {
                        reported = journaled;
                        out.println("journaled " + journaled);
                        out.flush();
                    }
                }
            }
            runner.close();
            out.println("done " + journal.journaledSequence());
            out.flush();
        }
    }
}
