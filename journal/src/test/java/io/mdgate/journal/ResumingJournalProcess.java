package io.mdgate.journal;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The process {@link ResumePointCrashTest} kills: opens a journal and, like a restarted gateway, carries the feed on
 * from the journal's resume point (a {@link SessionTickStream}: sessions, messages of one or two ticks, gaps),
 * printing {@code start N} (the first gateway sequence it journals), then {@code journaled N} as the journal reaches
 * N, until killed.
 * <p>
 * Arguments: journal directory, messages per session, a gap every that many messages.
 */
public final class ResumingJournalProcess
{
    private ResumingJournalProcess()
    {
    }

    public static void main(final String[] args)
    {
        final Path directory = Path.of(args[0]);
        final SessionTickStream stream = new SessionTickStream(Long.parseLong(args[1]), Integer.parseInt(args[2]));
        final PrintStream out = System.out;
        try (TickJournal journal = TickJournal.open(new JournalContext().directory(directory)))
        {
            final Optional<ResumePoint> point = journal.resumePoint();
            point.ifPresent(stream::resume);
            out.println("start " + journal.nextGatewaySequence() + " " + point.map(ResumePoint::toString)
                .orElse("without a resume point"));
            out.flush();
            final AgentRunner runner = new AgentRunner(
                new BackoffIdleStrategy(), Throwable::printStackTrace, null, journal.agent());
            AgentRunner.startOnThread(runner);
            final JournalPublisher publisher = journal.publisher();
            long reported = -1;
            while (true)
            {
                stream.next(publisher);
                if ((stream.nextGatewaySequence() & 1023) < 2)
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
        }
    }
}
