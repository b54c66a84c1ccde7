package io.mdgate.egress.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdgate.egress.transport.shm.BroadcastLogDescriptor;
import io.mdgate.egress.transport.shm.ShmRegionDescriptor;

/**
 * Holds docs/PROTOCOL.md to the Java code: every part between {@code <!-- begin NAME -->} and {@code <!-- end NAME -->}
 * must be exactly what {@link ProtocolTables} generates from the descriptors' constants now, so a changed offset,
 * length or code fails here with a diff. {@code -Dmdgate.protocol.write=true} rewrites the parts in the file instead
 * (then review the change with git diff):
 * <pre>
 * mvn -B -o -pl rdma-egress -am verify -Djacoco.skip=true -Dtest=ProtocolDocTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dmdgate.protocol.write=true
 * </pre>
 */
class ProtocolDocTest
{
    private static final Pattern PART = Pattern.compile("<!-- begin ([a-z-]+) -->\n(.*?)<!-- end \\1 -->",
        Pattern.DOTALL);
    private static final Pattern SLOT_CHECK_CONSTANT = Pattern.compile("^(\\w+)\\s+= 0x([0-9A-F]{16})$",
        Pattern.MULTILINE);

    /** Offset constants that name no field: where a seqlocked slot's single body write starts. */
    private static final Set<String> NOT_FIELDS = Set.of("TopOfBookDescriptor.BODY_OFFSET",
        "DepthTableDescriptor.BODY_OFFSET");

    @Test
    void shouldHoldExactlyTheTablesTheDescriptorsGive() throws IOException
    {
        final Path doc = document();
        final String text = Files.readString(doc, StandardCharsets.UTF_8);
        final Map<String, String> generated = ProtocolTables.generate();
        final Map<String, String> written = new LinkedHashMap<>();
        final Matcher matcher = PART.matcher(text);
        while (matcher.find())
        {
            if (written.put(matcher.group(1), matcher.group(2)) != null)
            {
                fail(doc + " has the part '" + matcher.group(1) + "' twice");
            }
        }
        final Set<String> unknown = new TreeSet<>(written.keySet());
        unknown.removeAll(generated.keySet());
        assertTrue(unknown.isEmpty(), doc + " has parts nothing generates: " + unknown);

        if (Boolean.getBoolean("mdgate.protocol.write"))
        {
            Files.writeString(doc, rewrite(text, generated, written), StandardCharsets.UTF_8);
            System.out.println("rewrote the generated parts of " + doc);
            return;
        }
        final StringBuilder differences = new StringBuilder();
        for (final Map.Entry<String, String> part : generated.entrySet())
        {
            final String inDoc = written.get(part.getKey());
            if (null == inDoc)
            {
                differences.append("\nmissing part '").append(part.getKey()).append("': add <!-- begin ")
                    .append(part.getKey()).append(" --> and <!-- end ").append(part.getKey()).append(" -->\n");
            }
            else if (!inDoc.equals(part.getValue()))
            {
                differences.append("\npart '").append(part.getKey()).append("' (- in the doc, + from the code):\n")
                    .append(diff(inDoc, part.getValue()));
            }
        }
        if (differences.length() > 0)
        {
            fail(doc + " differs from the Java code; rerun with -Dmdgate.protocol.write=true to rewrite it" +
                differences);
        }
    }

    @Test
    void shouldDocumentEveryOffsetOfTheDescriptorsAndFlyweights()
    {
        final Set<String> used = ProtocolTables.constantsUsed();
        final Set<String> missing = new TreeSet<>();
        for (final Class<?> descriptor : List.of(ControlMessageDescriptor.class, ConsumerRegionDescriptor.class,
            SharedLogDescriptor.class, StreamDatagramDescriptor.class, TopOfBookDescriptor.class,
            DepthTableDescriptor.class, PositionRegionDescriptor.class, ShmRegionDescriptor.class,
            BroadcastLogDescriptor.class))
        {
            for (final Field field : descriptor.getDeclaredFields())
            {
                final String name = descriptor.getSimpleName() + "." + field.getName();
                if (field.getName().endsWith("_OFFSET") && !used.contains(name) && !NOT_FIELDS.contains(name))
                {
                    missing.add(name);
                }
            }
        }
        for (final Class<?> flyweight : List.of(HelloFlyweight.class, WelcomeFlyweight.class, RejectFlyweight.class,
            SubscriptionFlyweight.class, HeartbeatFlyweight.class, SequenceRangeFlyweight.class,
            RecoveryDataFlyweight.class, SnapshotRequestFlyweight.class))
        {
            for (final Field field : flyweight.getDeclaredFields())
            {
                final String name = flyweight.getSimpleName() + "." + field.getName();
                if (field.getType() == int.class && Modifier.isPrivate(field.getModifiers()) &&
                    Modifier.isStatic(field.getModifiers()) && !used.contains(name))
                {
                    missing.add(name);
                }
            }
        }
        assertTrue(missing.isEmpty(), "offsets in no table of docs/PROTOCOL.md (add a row in ProtocolTables): " +
            missing);
    }

    @Test
    void shouldComputeTheSlotCheckAsTheDocumentSaysWithItsConstants() throws IOException
    {
        final String part = ProtocolTables.generate().get("slot-check");
        final Map<String, Long> constants = new LinkedHashMap<>();
        final Matcher matcher = SLOT_CHECK_CONSTANT.matcher(part);
        while (matcher.find())
        {
            constants.put(matcher.group(1), Long.parseUnsignedLong(matcher.group(2), 16));
        }
        assertEquals(Set.of("SEED", "MULTIPLIER", "FINAL_MULTIPLIER"), constants.keySet());
        final Random random = new Random(7);
        final UnsafeBuffer slot = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 10_000; i++)
        {
            final long position = i < 100 ? i : random.nextLong() >>> 1;
            for (int word = 0; word < 8; word++)
            {
                slot.putLong(word * 8, random.nextLong(), java.nio.ByteOrder.LITTLE_ENDIAN);
            }
            assertEquals(SlotCheck.compute(position, slot, 0), documentedCheck(constants, position, slot),
                "position " + position);
        }
    }

    /** The check as docs/PROTOCOL.md writes it, step by step. */
    private static long documentedCheck(final Map<String, Long> constants, final long position,
        final UnsafeBuffer slot)
    {
        long h = (position + 1) * constants.get("SEED");
        for (int i = 0; i < 8; i++)
        {
            h = Long.rotateLeft(h ^ slot.getLong(8 * i, java.nio.ByteOrder.LITTLE_ENDIAN), 27) *
                constants.get("MULTIPLIER");
        }
        h ^= h >>> 31;
        h *= constants.get("FINAL_MULTIPLIER");
        return h ^ (h >>> 29);
    }

    private static String rewrite(final String text, final Map<String, String> generated,
        final Map<String, String> written)
    {
        final Matcher matcher = PART.matcher(text);
        final StringBuilder out = new StringBuilder();
        while (matcher.find())
        {
            final String name = matcher.group(1);
            matcher.appendReplacement(out, Matcher.quoteReplacement("<!-- begin " + name + " -->\n" +
                generated.get(name) + "<!-- end " + name + " -->"));
        }
        matcher.appendTail(out);
        final List<String> absent = new ArrayList<>(generated.keySet());
        absent.removeAll(written.keySet());
        for (final String name : absent)
        {
            out.append("\n<!-- begin ").append(name).append(" -->\n").append(generated.get(name))
                .append("<!-- end ").append(name).append(" -->\n");
        }
        return out.toString();
    }

    /** @return a line diff of two short texts (longest common subsequence), changed lines only. */
    static String diff(final String before, final String after)
    {
        final String[] a = before.split("\n", -1);
        final String[] b = after.split("\n", -1);
        final int[][] common = new int[a.length + 1][b.length + 1];
        for (int i = a.length - 1; i >= 0; i--)
        {
            for (int j = b.length - 1; j >= 0; j--)
            {
                common[i][j] = a[i].equals(b[j]) ? common[i + 1][j + 1] + 1 :
                    Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        final StringBuilder out = new StringBuilder();
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length)
        {
            if (i < a.length && j < b.length && a[i].equals(b[j]))
            {
                i++;
                j++;
            }
            else if (j < b.length && (i == a.length || common[i][j + 1] >= common[i + 1][j]))
            {
                out.append("+ ").append(b[j++]).append('\n');
            }
            else
            {
                out.append("- ").append(a[i++]).append('\n');
            }
        }
        return out.toString();
    }

    private static Path document()
    {
        Path directory = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (directory != null && !Files.isRegularFile(directory.resolve("docs/EGRESS.md")))
        {
            directory = directory.getParent();
        }
        assertTrue(directory != null, "no docs/ above " + System.getProperty("user.dir"));
        final Path doc = directory.resolve("docs/PROTOCOL.md");
        assertTrue(Files.isRegularFile(doc), doc + " is missing");
        return doc;
    }
}
