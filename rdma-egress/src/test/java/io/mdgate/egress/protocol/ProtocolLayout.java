package io.mdgate.egress.protocol;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One byte table of docs/PROTOCOL.md, built from a layout class's constants: each row names the constant (or a sum
 * of constants and numbers) that holds its offset in the Java code, its size and type, and what it means. The
 * offsets and lengths in the table are read by reflection, so a changed constant changes the table. Rows are sorted
 * by offset; the bytes between rows become "(reserved, 0)" rows, and two rows that overlap, or a row past the
 * layout's length, are an error. Not thread-safe; test support.
 */
final class ProtocolLayout
{
    /** The counts an offset or size may depend on: ring slots N, ticks n, bytes L, levels M. */
    private static final Set<String> COUNTS = Set.of("N", "n", "L", "M");

    private final String title;
    private final Class<?> type;
    private final List<Row> rows = new ArrayList<>();
    private final Set<String> used = new LinkedHashSet<>();
    private String lengthExpression;
    private String lengthNote = "";

    private record Row(Linear offset, Linear size, String type, String meaning)
    {
    }

    /** {@code constant + coefficient x variable}: an offset or size that may depend on one count (N, n, L, M). */
    private record Linear(long constant, long coefficient, String variable)
    {
        Linear plus(final Linear other)
        {
            final String name = coefficient != 0 ? variable : other.variable;
            if (coefficient != 0 && other.coefficient != 0 && !variable.equals(other.variable))
            {
                throw new IllegalArgumentException("two counts in one expression: " + variable + ", " + other.variable);
            }
            return new Linear(constant + other.constant, coefficient + other.coefficient, name);
        }

        Linear times(final Linear other)
        {
            if (coefficient != 0 && other.coefficient != 0)
            {
                throw new IllegalArgumentException("a count times a count");
            }
            return new Linear(constant * other.constant, coefficient * other.constant + other.coefficient * constant,
                coefficient != 0 ? variable : other.variable);
        }

        boolean isConstant()
        {
            return coefficient == 0;
        }

        @Override
        public String toString()
        {
            if (coefficient == 0)
            {
                return Long.toString(constant);
            }
            final String term = (coefficient == 1 ? "" : coefficient + " ") + variable;
            return constant == 0 ? term : constant + " + " + term;
        }
    }

    private ProtocolLayout(final String title, final Class<?> type)
    {
        this.title = title;
        this.type = type;
    }

    /** A layout whose constants are in {@code type}. */
    static ProtocolLayout of(final String title, final Class<?> type)
    {
        return new ProtocolLayout(title, type);
    }

    /** A scalar field: its size follows from its type (u8/i8, u16/i16, u32/i32, u64/i64). */
    ProtocolLayout field(final String offset, final String scalar, final String meaning)
    {
        return field(offset, Long.toString(sizeOf(scalar)), scalar, meaning);
    }

    /** A field of any size, {@code size} an expression like {@code offset}. */
    ProtocolLayout field(final String offset, final String size, final String fieldType, final String meaning)
    {
        rows.add(new Row(value(offset), value(size), fieldType, meaning));
        return this;
    }

    /** The message or layout is {@code length} bytes (an expression), with a note after the number. */
    ProtocolLayout length(final String length, final String note)
    {
        lengthExpression = length;
        lengthNote = note;
        return this;
    }

    /** @return the names of the constants this table read. */
    Set<String> used()
    {
        return used;
    }

    /** @return the table in Markdown. */
    String markdown()
    {
        rows.sort(Comparator.comparingLong((Row row) -> row.offset.coefficient)
            .thenComparingLong(row -> row.offset.constant));
        final StringBuilder out = new StringBuilder();
        out.append("| offset | size | type | ").append(title).append(" |\n|---:|---:|---|---|\n");
        Linear end = new Linear(0, 0, "");
        for (final Row row : rows)
        {
            out.append(gap(end, row));
            out.append(row(row.offset, row.size, row.type, row.meaning));
            end = row.offset.plus(row.size);
        }
        if (lengthExpression != null)
        {
            final Linear length = value(lengthExpression);
            out.append(gap(end, new Row(length, length, "", "the end")));
            out.append("\n").append(title.substring(0, 1).toUpperCase(Locale.ROOT)).append(title.substring(1))
                .append(": ").append(length).append(" bytes").append(lengthNote).append(".\n");
        }
        return out.toString();
    }

    /** @return a reserved row for the bytes between the end of the rows so far and the next row, or "". */
    private String gap(final Linear end, final Row next)
    {
        if (next.offset.equals(end) || (next.offset.coefficient == end.coefficient &&
            next.offset.constant == end.constant))
        {
            return "";
        }
        if (next.offset.coefficient == end.coefficient && next.offset.constant > end.constant)
        {
            return row(end, new Linear(next.offset.constant - end.constant, 0, ""), "", "(reserved, 0)");
        }
        throw new AssertionError(title + ": " + next.meaning + " at " + next.offset + " overlaps the row before " +
            "it, which ends at " + end);
    }

    private static String row(final Linear offset, final Linear size, final String type, final String meaning)
    {
        return "| " + offset + " | " + size + " | " + type + " | " + meaning + " |\n";
    }

    private static long sizeOf(final String scalar)
    {
        switch (scalar.substring(1))
        {
            case "8":
                return 1;
            case "16":
                return 2;
            case "32":
                return 4;
            case "64":
                return 8;
            default:
                throw new IllegalArgumentException("not a scalar type: " + scalar);
        }
    }

    /** @return the value of an expression of constants of the layout class (or Class#NAME), numbers and counts. */
    private Linear value(final String expression)
    {
        Linear sum = new Linear(0, 0, "");
        for (final String term : expression.split("\\+"))
        {
            Linear product = new Linear(1, 0, "");
            for (final String factor : term.trim().split(" x "))
            {
                product = product.times(factor(factor.trim()));
            }
            sum = sum.plus(product);
        }
        return sum;
    }

    private Linear factor(final String factor)
    {
        if (Character.isDigit(factor.charAt(0)))
        {
            return new Linear(Long.parseLong(factor), 0, "");
        }
        if (COUNTS.contains(factor))
        {
            return new Linear(0, 1, factor);
        }
        final int hash = factor.indexOf('#');
        final Class<?> owner = hash < 0 ? type : classNamed(factor.substring(0, hash));
        final String name = hash < 0 ? factor : factor.substring(hash + 1);
        used.add(owner.getSimpleName() + "." + name);
        return new Linear(constant(owner, name), 0, "");
    }

    private Class<?> classNamed(final String simpleName)
    {
        final String[] packages = { "io.mdgate.egress.protocol.", "io.mdgate.egress.transport.shm.",
            "io.mdgate.core.depth." };
        for (final String prefix : packages)
        {
            try
            {
                return Class.forName(prefix + simpleName);
            }
            catch (final ClassNotFoundException ignored)
            {
                // try the next package
            }
        }
        throw new IllegalArgumentException("no layout class " + simpleName);
    }

    /** @return the value of a static integral constant of any visibility. */
    static long constant(final Class<?> owner, final String name)
    {
        try
        {
            final Field field = owner.getDeclaredField(name);
            if (!Modifier.isStatic(field.getModifiers()) || !Modifier.isFinal(field.getModifiers()))
            {
                throw new IllegalArgumentException(owner.getSimpleName() + "." + name + " is not a constant");
            }
            field.setAccessible(true);
            return ((Number)field.get(null)).longValue();
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalArgumentException("no constant " + owner.getSimpleName() + "." + name, ex);
        }
    }
}
