package io.mdgate.app.journal;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.TickJournal;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.time.LocalDate;

/**
 * A journal of simulated sessions, one day each, normalized as the gateway does it (SESSION tick, books and directory
 * emptied at each), that records which symbol the simulator gave each locate of each session.
 * {@link #threeSessions(Path)}: two days with their own seeds and instrument counts, so their stock locates name
 * other symbols, and a third whose Stock Directory messages were left out, so its ticks have no symbol.
 */
final class SessionsJournal
{
    /** No session without its Stock Directory messages. */
    static final int ALL_WITH_DIRECTORY = -1;

    final Path directory;
    /** Gateway sequence of each session's SESSION tick; sessions are numbered from 1, index 0 is session 1. */
    final long[] sessionStarts;
    final long lastSequence;
    private final SimulationConfig[] days;
    private final int withoutDirectory;
    private final ItchSessionGenerator[] generators;

    static SessionsJournal threeSessions(final Path directory)
    {
        return new SessionsJournal(directory, new SimulationConfig[] {
            new SimulationConfig().seed(5).instruments(30).messages(20_000).sessionDate(LocalDate.of(2025, 1, 2)),
            new SimulationConfig().seed(9).instruments(20).messages(15_000).sessionDate(LocalDate.of(2025, 1, 3)),
            new SimulationConfig().seed(13).instruments(10).messages(10_000).sessionDate(LocalDate.of(2025, 1, 6)) },
            2);
    }

    /**
     * @param directory        where the journal is made.
     * @param days             one simulated day per session, in order.
     * @param withoutDirectory the session (0-based) whose Stock Directory messages are not normalized, or
     *                         {@link #ALL_WITH_DIRECTORY}.
     */
    SessionsJournal(final Path directory, final SimulationConfig[] days, final int withoutDirectory)
    {
        this.directory = directory;
        this.days = days;
        this.withoutDirectory = withoutDirectory;
        this.sessionStarts = new long[days.length];
        this.generators = new ItchSessionGenerator[days.length];
        try (TickJournal journal = TickJournal.open(new JournalContext().directory(directory)))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            final long[] count = { 0 };
            final TickHandler journaling = (buffer, offset) ->
            {
                if (buffer.getByte(offset + TickEncoder.eventTypeEncodingOffset()) == EventType.SESSION.value())
                {
                    final int session = buffer.getShort(offset + TickEncoder.sessionIdEncodingOffset(),
                        TickEncoder.BYTE_ORDER);
                    sessionStarts[session - 1] = buffer.getLong(offset, TickEncoder.BYTE_ORDER);
                }
                journal.publisher().onTick(buffer, offset);
                if ((++count[0] & 255) == 0)
                {
                    agent.doWork();
                }
            };
            final OrderBooks books = new OrderBooks(new BookContext().conclude());
            final ExchangeClock clock = new ExchangeClock(days[0].sessionDate());
            final Normalizer normalizer = new Normalizer(books, clock, journaling, 1);
            final MessageProcessor processor = new MessageProcessor(normalizer);
            for (int day = 0; day < days.length; day++)
            {
                clock.sessionDate(days[day].sessionDate());
                normalizer.onSession(day + 1, new UnsafeBuffer(MoldUdp64Session.of("DAY" + (day + 1))), 0, 1);
                generators[day] = run(new ItchSessionGenerator(days[day]), processor, day != withoutDirectory);
            }
            agent.onClose();
            lastSequence = journal.journaledSequence();
        }
    }

    private static ItchSessionGenerator run(final ItchSessionGenerator generator, final MessageProcessor processor,
        final boolean withDirectory)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        long sequence = 1;
        int length;
        while ((length = generator.next(message, 0)) > 0)
        {
            if (withDirectory || message.getByte(0) != 'R')
            {
                processor.process(message, 0, length, sequence);
            }
            sequence++;
        }
        return generator;
    }

    /**
     * @param session    the session's number, from 1.
     * @param instrument a stock locate.
     * @return the symbol the simulator gave the locate in that session, or null when the session named none.
     */
    String symbol(final int session, final int instrument)
    {
        final int day = session - 1;
        return day == withoutDirectory || instrument < 1 || instrument > days[day].instruments() ? null :
            generators[day].symbol(instrument);
    }
}
