package io.mdgate.runtime.config;

import java.util.List;

/**
 * A configuration file that cannot be used: its message lists every problem found, one a line, each with the key
 * path (e.g. {@code feed.lines[1].group}), what is wrong and what would be right. Immutable.
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    /**
     * @param source   where the configuration came from, e.g. its file name.
     * @param problems every problem, at least one.
     */
    public ConfigException(final String source, final List<String> problems)
    {
        super(message(source, problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * @return every problem, one a string, in the order found.
     */
    public List<String> problems()
    {
        return problems;
    }

    /** The first problem goes on the first line (the one a refusal prints first), the others one a line after. */
    private static String message(final String source, final List<String> problems)
    {
        final StringBuilder text = new StringBuilder();
        text.append(source).append(": ");
        if (problems.size() > 1)
        {
            text.append(problems.size()).append(" problems, the first: ");
        }
        text.append(problems.isEmpty() ? "invalid" : problems.get(0));
        for (int i = 1; i < problems.size(); i++)
        {
            text.append(System.lineSeparator()).append("  ").append(problems.get(i));
        }
        return text.toString();
    }
}
