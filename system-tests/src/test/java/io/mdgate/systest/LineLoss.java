package io.mdgate.systest;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Packet loss on the feed veth's egress in the exchange namespace, per line, with exact counts.
 * <p>
 * The issue asks for {@code tc netem}; where the kernel has no {@code sch_netem} (built without it, or without
 * loadable modules) the same loss is made with nftables on the {@code netdev} egress hook of the interface, which
 * runs where a root qdisc would (after the sending socket, so the sender never sees an error, before the wire).
 * The rules are used even where netem exists, because their counters say exactly how many packets of each line
 * were dropped and passed, which netem does not:
 * <ul>
 *   <li>independent random loss: one rule per line, {@code numgen random mod 1000 < permille} (a fresh random
 *   draw per packet, so the two lines lose independently);</li>
 *   <li>bursts on both lines at once: one rule over both groups, {@code numgen inc mod period} in
 *   {@code period/2 .. period/2 + burst - 1}: every {@code period} packets of the two lines together, {@code burst}
 *   consecutive ones are dropped; the simulator sends each packet on A then at once on B, so a burst takes the same
 *   sequences off both lines. The burst sits mid-cycle so the session's last packets (and its end-of-session
 *   marks, after which nothing could reveal a loss) are never hit.</li>
 * </ul>
 * Every rule carries a comment naming it; {@link #counters()} reads them back.
 */
final class LineLoss
{
    private static final Pattern COUNTER = Pattern.compile("counter packets (\\d+) bytes \\d+.*comment \"(\\w+)\"");

    private final String namespace;
    private final String table;

    private LineLoss(final String namespace, final String table)
    {
        this.namespace = namespace;
        this.table = table;
    }

    /** @return why nftables cannot be used here, or null when it can. */
    static String unavailable()
    {
        try
        {
            final StringBuilder out = new StringBuilder();
            if (FeedNamespaces.runForOutput(List.of("nft", "--version"), 10, out) != 0)
            {
                return "nft does not run: " + out.toString().strip();
            }
            return null;
        }
        catch (final IOException ex)
        {
            return "nftables (nft) is not installed (deploy/setup.sh installs it): " + ex.getMessage();
        }
    }

    /** @return why tc netem cannot be used here (printed by the test), or null when a netem qdisc could be made. */
    static String netemUnavailable(final String namespace, final String device) throws IOException
    {
        final StringBuilder out = new StringBuilder();
        final int exit = FeedNamespaces.runForOutput(List.of("ip", "netns", "exec", namespace, "tc", "qdisc", "add",
            "dev", device, "root", "netem", "loss", "0%"), 10, out);
        if (exit == 0)
        {
            FeedNamespaces.run(List.of("ip", "netns", "exec", namespace, "tc", "qdisc", "del", "dev", device, "root"),
                10);
            return null;
        }
        return "tc netem: " + out.toString().strip();
    }

    /**
     * Installs the rules on a device of a namespace.
     *
     * @param lossPermille  random loss per line, per thousand packets (0 for none).
     * @param burstPeriod   packets of both lines together per burst cycle (0 for no bursts).
     * @param burstLength   consecutive packets dropped at the start of each cycle.
     */
    static LineLoss install(final String namespace, final String device, final String groupA, final String groupB,
        final int lossPermille, final int burstPeriod, final int burstLength) throws IOException
    {
        final String table = "mdgloss";
        final StringBuilder rules = new StringBuilder();
        rules.append("table netdev ").append(table).append(" {\n")
            .append("  chain egress {\n")
            .append("    type filter hook egress device \"").append(device).append("\" priority 0; policy accept;\n");
        if (burstPeriod > 0)
        {
            rules.append("    ip daddr { ").append(groupA).append(", ").append(groupB).append(" } numgen inc mod ")
                .append(burstPeriod).append(' ').append(burstPeriod / 2).append('-').append(burstPeriod / 2 + burstLength - 1)
                .append(" counter drop comment \"burst\"\n");
        }
        if (lossPermille > 0)
        {
            rules.append("    ip daddr ").append(groupA).append(" numgen random mod 1000 < ").append(lossPermille)
                .append(" counter drop comment \"dropA\"\n");
            rules.append("    ip daddr ").append(groupB).append(" numgen random mod 1000 < ").append(lossPermille)
                .append(" counter drop comment \"dropB\"\n");
        }
        rules.append("    ip daddr ").append(groupA).append(" counter comment \"passA\"\n")
            .append("    ip daddr ").append(groupB).append(" counter comment \"passB\"\n")
            .append("  }\n}\n");
        final Process nft = new ProcessBuilder("ip", "netns", "exec", namespace, "nft", "-f", "-")
            .redirectErrorStream(true).start();
        nft.getOutputStream().write(rules.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        nft.getOutputStream().close();
        final String output = new String(nft.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try
        {
            if (nft.waitFor() != 0)
            {
                throw new IOException("nft refused the loss rules: " + output + "\n" + rules);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException(ex);
        }
        return new LineLoss(namespace, table);
    }

    /** Packets counted by each rule, by its comment. */
    record Counters(long burst, long dropA, long dropB, long passA, long passB)
    {
    }

    Counters counters() throws IOException
    {
        final StringBuilder out = new StringBuilder();
        if (FeedNamespaces.runForOutput(List.of("ip", "netns", "exec", namespace, "nft", "list", "table", "netdev",
            table), 10, out) != 0)
        {
            throw new IOException("cannot read the loss counters: " + out);
        }
        final long[] values = new long[5];
        final List<String> names = List.of("burst", "dropA", "dropB", "passA", "passB");
        final Matcher matcher = COUNTER.matcher(out);
        while (matcher.find())
        {
            values[names.indexOf(matcher.group(2))] = Long.parseLong(matcher.group(1));
        }
        return new Counters(values[0], values[1], values[2], values[3], values[4]);
    }
}
