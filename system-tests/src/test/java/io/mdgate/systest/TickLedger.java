package io.mdgate.systest;

import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ticks of a journal or of a consumer's recording, read into memory, and what the exactly-once promise says
 * about them: gateway sequences contiguous with no duplicate and no hole; every exchange message of every session,
 * named by its MoldUDP64 session (the SESSION ticks map the ticks' sessionId to it) and exchange sequence, present
 * exactly once (each message ends with exactly one tick carrying {@code lastInMessage}); no GAP tick; exchange times
 * never going backwards. Each check returns the problems it found as sentences (empty when none), so a test reports
 * every way a run went wrong at once. Not thread-safe.
 */
final class TickLedger
{
    static final int TICK = 64;
    static final int GAP = 24;
    static final int SESSION = 25;
    private static final int LAST_IN_MESSAGE = 1 << 2;
    private static final int REPLAYED = 1 << 7;
    private static final int EXAMPLES = 5;

    /** A SESSION tick: the gateway's number for a session and the session's name. */
    record SessionTick(long gatewaySequence, int sessionId, String name, long firstExchangeSequence)
    {
    }

    private final String what;
    private final ByteBuffer ticks;
    private final int count;

    private TickLedger(final String what, final ByteBuffer ticks)
    {
        this.what = what;
        this.ticks = ticks.order(ByteOrder.LITTLE_ENDIAN);
        this.count = ticks.capacity() / TICK;
    }

    /** @return every tick of the journal in the directory, in order. */
    static TickLedger ofJournal(final Path directory)
    {
        try (JournalReader reader = JournalReader.open(directory);
            TickReplay replay = reader.newTickReplay())
        {
            final long first = replay.firstSequence();
            final long last = replay.lastSequence();
            if (first == TickReplay.NO_SEQUENCE)
            {
                return new TickLedger("the journal", ByteBuffer.allocate(0));
            }
            final ByteBuffer all = ByteBuffer.allocate(Math.toIntExact((last - first + 1) * TICK))
                .order(ByteOrder.LITTLE_ENDIAN);
            replay.replay(first, last, (buffer, offset) ->
            {
                for (int i = 0; i < TICK; i += 8)
                {
                    all.putLong(buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN));
                }
            });
            return new TickLedger("the journal", ByteBuffer.wrap(all.array(), 0, all.position()).slice());
        }
    }

    /** @return the ticks a {@link TickRecordingConsumer} wrote (a partly written last one is left out). */
    static TickLedger ofRecording(final String consumer, final Path file) throws IOException
    {
        final byte[] bytes = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        return new TickLedger("consumer " + consumer, ByteBuffer.wrap(bytes, 0, bytes.length / TICK * TICK).slice());
    }

    int count()
    {
        return count;
    }

    long gatewaySequence(final int i)
    {
        return ticks.getLong(i * TICK);
    }

    long exchangeSequence(final int i)
    {
        return ticks.getLong(i * TICK + 8);
    }

    long exchangeTimestamp(final int i)
    {
        return ticks.getLong(i * TICK + 16);
    }

    int sessionId(final int i)
    {
        return ticks.getShort(i * TICK + 58) & 0xFFFF;
    }

    int flags(final int i)
    {
        return ticks.getShort(i * TICK + 60) & 0xFFFF;
    }

    int eventType(final int i)
    {
        return ticks.get(i * TICK + 62) & 0xFF;
    }

    /** @return the SESSION ticks, in order. */
    List<SessionTick> sessionTicks()
    {
        final List<SessionTick> sessions = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            if (eventType(i) == SESSION)
            {
                final byte[] name = new byte[10];
                ticks.get(i * TICK + 32, name, 0, 8);
                ticks.get(i * TICK + 40, name, 8, 2);
                sessions.add(new SessionTick(gatewaySequence(i), sessionId(i),
                    new String(name, StandardCharsets.US_ASCII), exchangeSequence(i)));
            }
        }
        return sessions;
    }

    /** @return the GAP ticks, described. */
    List<String> gapTicks()
    {
        final List<String> gaps = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            if (eventType(i) == GAP)
            {
                gaps.add("GAP at gateway sequence " + gatewaySequence(i) + ": session " + sessionId(i) +
                    " exchange sequences from " + exchangeSequence(i) + ", " + ticks.getLong(i * TICK + 40) + " lost");
            }
        }
        return gaps;
    }

    /** @return problems with the gateway sequences: they must run from 1 to the last without a break. */
    List<String> sequenceProblems()
    {
        final List<String> problems = new ArrayList<>();
        long expected = 1;
        long breaks = 0;
        final StringBuilder examples = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            final long sequence = gatewaySequence(i);
            if (sequence != expected)
            {
                if (breaks++ < EXAMPLES)
                {
                    examples.append(" [").append(i).append("] ").append(expected - 1).append(" -> ").append(sequence);
                }
            }
            expected = sequence + 1;
        }
        if (breaks > 0)
        {
            problems.add(what + ": gateway sequences break " + breaks + " times (a duplicate or a hole), e.g." +
                examples);
        }
        return problems;
    }

    /**
     * @param expected each session's name and its number of messages (sequences 1 to that), as the exchange sent.
     * @return problems with the exchange messages: each must be present exactly once, under its own session.
     */
    List<String> messageProblems(final Map<String, Long> expected)
    {
        final Map<Integer, String> names = new HashMap<>();
        sessionTicks().forEach(s -> names.put(s.sessionId(), s.name()));
        final Map<String, int[]> seen = new HashMap<>();
        expected.forEach((name, messages) -> seen.put(name, new int[Math.toIntExact(messages + 1)]));
        final List<String> problems = new ArrayList<>();
        final int[] bySequenceAlone = expected.size() == 1 ?
            new int[Math.toIntExact(expected.values().iterator().next() + 1)] : null;
        long unexpected = 0;
        final StringBuilder unexpectedExamples = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            final int type = eventType(i);
            if (type == GAP || type == SESSION || (flags(i) & LAST_IN_MESSAGE) == 0)
            {
                continue;
            }
            final String name = names.getOrDefault(sessionId(i), "sessionId " + sessionId(i) + " (no SESSION tick)");
            final int[] counts = seen.get(name);
            final long sequence = exchangeSequence(i);
            if (bySequenceAlone != null && sequence >= 1 && sequence < bySequenceAlone.length)
            {
                bySequenceAlone[(int)sequence]++;
            }
            if (counts == null || sequence < 1 || sequence >= counts.length)
            {
                if (unexpected++ < EXAMPLES)
                {
                    unexpectedExamples.append(" [").append(name).append(" #").append(sequence).append(" at gateway ")
                        .append(gatewaySequence(i)).append(']');
                }
                continue;
            }
            counts[(int)sequence]++;
        }
        if (unexpected > 0)
        {
            problems.add(what + ": " + unexpected + " messages of no session the exchange sent, or beyond its last " +
                "sequence, e.g." + unexpectedExamples + (bySequenceAlone == null ? "" :
                "; by exchange sequence alone, whatever the session: " + describe(bySequenceAlone)));
        }
        for (final Map.Entry<String, Long> session : expected.entrySet())
        {
            final int[] counts = seen.get(session.getKey());
            long missing = 0;
            long duplicated = 0;
            final StringBuilder missingExamples = new StringBuilder();
            final StringBuilder duplicateExamples = new StringBuilder();
            for (int sequence = 1; sequence < counts.length; sequence++)
            {
                if (counts[sequence] == 0 && missing++ < EXAMPLES)
                {
                    missingExamples.append(' ').append(sequence);
                }
                if (counts[sequence] > 1 && duplicated++ < EXAMPLES)
                {
                    duplicateExamples.append(' ').append(sequence).append(" x").append(counts[sequence]);
                }
            }
            if (missing > 0)
            {
                problems.add(what + ": " + missing + " of the " + session.getValue() + " messages of session " +
                    session.getKey() + " missing, e.g." + missingExamples);
            }
            if (duplicated > 0)
            {
                problems.add(what + ": " + duplicated + " of the " + session.getValue() + " messages of session " +
                    session.getKey() + " there more than once, e.g." + duplicateExamples);
            }
        }
        return problems;
    }

    private static String describe(final int[] counts)
    {
        long missing = 0;
        long duplicated = 0;
        long extra = 0;
        for (int sequence = 1; sequence < counts.length; sequence++)
        {
            missing += counts[sequence] == 0 ? 1 : 0;
            duplicated += counts[sequence] > 1 ? 1 : 0;
            extra += Math.max(0, counts[sequence] - 1);
        }
        return missing + " missing, " + duplicated + " there more than once (" + extra + " extra copies)";
    }

    /** @return problems with the exchange times: they never go backwards. */
    List<String> timeProblems()
    {
        long backwards = 0;
        String example = "";
        for (int i = 1; i < count; i++)
        {
            if (exchangeTimestamp(i) < exchangeTimestamp(i - 1) && backwards++ == 0)
            {
                example = " e.g. at gateway sequence " + gatewaySequence(i) + ": " + exchangeTimestamp(i - 1) +
                    " then " + exchangeTimestamp(i);
            }
        }
        return backwards == 0 ? List.of() : List.of(what + ": exchange time goes backwards " + backwards + " times," +
            example);
    }

    /** @return problems where this recording's ticks differ from the journal's of the same gateway sequence. */
    List<String> differencesFrom(final TickLedger journal)
    {
        long differ = 0;
        String example = "";
        final Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < journal.count; i++)
        {
            index.put(journal.gatewaySequence(i), i);
        }
        for (int i = 0; i < count; i++)
        {
            final Integer j = index.get(gatewaySequence(i));
            if (j == null || !sameTick(i, journal, j))
            {
                if (differ++ == 0)
                {
                    example = " e.g. gateway sequence " + gatewaySequence(i) + (j == null ? " not in the journal" : "");
                }
            }
        }
        return differ == 0 ? List.of() : List.of(what + ": " + differ + " ticks differ from the journal's," + example);
    }

    private boolean sameTick(final int i, final TickLedger other, final int j)
    {
        for (int at = 0; at < TICK; at += 2)
        {
            int mine = ticks.getShort(i * TICK + at) & 0xFFFF;
            int theirs = other.ticks.getShort(j * TICK + at) & 0xFFFF;
            if (at == 60)
            {
                mine &= ~REPLAYED;
                theirs &= ~REPLAYED;
            }
            if (mine != theirs)
            {
                return false;
            }
        }
        return true;
    }

    long lastGatewaySequence()
    {
        return count == 0 ? 0 : gatewaySequence(count - 1);
    }
}
