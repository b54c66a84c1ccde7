package io.mdgate.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code mdgate} command line: the operator's entry point to the gateway, its tools and the simulator.
 */
@Command(
    name = "mdgate",
    mixinStandardHelpOptions = true,
    version = "mdgate 0.1.0",
    description = "Market-data gateway: ITCH 5.0 / MoldUDP64 in, normalized ticks out.",
    subcommands = { CommandLine.HelpCommand.class })
public final class Main implements Runnable
{
    @Override
    public void run()
    {
        new CommandLine(this).usage(System.out);
    }

    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new Main()).execute(args));
    }
}
