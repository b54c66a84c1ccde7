package io.mdgate.app.sim;

import io.mdgate.core.sim.SimulationConfig;

import java.nio.file.Path;

/**
 * Everything a {@link SimulationRun} needs besides the generator's own {@link SimulationConfig}: framing, the
 * output and its addresses, the faults per line and the re-request server. Immutable; {@code mdgate sim}
 * builds it from its options and checks it first.
 *
 * @param simulation        the session to generate.
 * @param session           MoldUDP64 session name, up to 10 ASCII characters.
 * @param output            where the packets (or, for ITCH, the bare messages) go.
 * @param file              the pcap or daily file, for those outputs.
 * @param interfaceName     the interface to send through, for live multicast.
 * @param groupA            line A's multicast group and port.
 * @param groupB            line B's multicast group and port.
 * @param source            source address and port written into the pcap.
 * @param mtu               link MTU; a packet's UDP payload is at most {@code mtu - 28}.
 * @param messagesPerPacket most messages per packet; 0 for as many as fit.
 * @param packetWindowNanos a packet takes the messages arriving this long after its first.
 * @param heartbeatNanos    idle exchange time between heartbeats.
 * @param faultsA           faults on line A.
 * @param faultsB           faults on line B.
 * @param ttl               multicast TTL for live sending.
 * @param maxIdleNanos      longest wall-clock wait between two live packets.
 * @param pacing            how live sending waits for a packet's send time.
 * @param retransmitPort    port of the re-request server; -1 for none, 0 for any free port.
 * @param retransmitAddress address the re-request server listens on.
 * @param answerLimit       most messages in one re-request answer.
 * @param retransmitWindow  most messages the re-request server retains.
 * @param lingerNanos       how long the re-request server keeps answering after the session ends.
 * @param sessionChangeAt   messages in the first session before the day continues in the second; 0 for no change.
 * @param secondSession     MoldUDP64 session name after the change.
 * @param lagBNanos         exchange time line B lags line A; 0 for none.
 * @param injected          stray and far-ahead packets to inject.
 */
public record SimulatorSettings(
    SimulationConfig simulation,
    String session,
    Output output,
    Path file,
    String interfaceName,
    UdpAddress groupA,
    UdpAddress groupB,
    UdpAddress source,
    int mtu,
    int messagesPerPacket,
    long packetWindowNanos,
    long heartbeatNanos,
    FaultConfig faultsA,
    FaultConfig faultsB,
    int ttl,
    long maxIdleNanos,
    Pacing pacing,
    int retransmitPort,
    String retransmitAddress,
    int answerLimit,
    int retransmitWindow,
    long lingerNanos,
    long sessionChangeAt,
    String secondSession,
    long lagBNanos,
    InjectedPackets injected)
{
    /** How live sending waits for the next packet's send time. */
    public enum Pacing
    {
        /**
         * Parks while more than 200 us remain, then spins and polls the re-request server until the time: sends land
         * within a microsecond of their time, and the sending thread keeps a CPU busy.
         */
        SPIN,
        /**
         * Parks for the whole wait (with the thread's timer slack cut to 1 us) and polls the re-request server once
         * per wake-up: sends land within some microseconds of their time, packets that fall due together go
         * back to back, and the CPU is free between them for whatever shares it (a consumer, on a small host).
         */
        SLEEP
    }

    /** Where a run's output goes. */
    public enum Output
    {
        /** Nowhere: generate, frame and fault, then report. */
        NONE,
        /** A pcap file with both lines. */
        PCAP,
        /** A Nasdaq daily file of bare messages (no MoldUDP64, so no lines, faults or re-requests). */
        ITCH,
        /** Live UDP multicast through an interface. */
        SEND
    }

    /** IPv4 and UDP headers: what the MTU loses before the MoldUDP64 packet. */
    public static final int IP_UDP_HEADERS = 28;

    public static final UdpAddress DEFAULT_GROUP_A = UdpAddress.parse("233.54.12.111:26477");
    public static final UdpAddress DEFAULT_GROUP_B = UdpAddress.parse("233.49.196.111:26477");
    public static final UdpAddress DEFAULT_SOURCE = UdpAddress.parse("10.0.0.1:26400");

    /** @return the largest MoldUDP64 packet. */
    public int maxPayload()
    {
        return mtu - IP_UDP_HEADERS;
    }

    /** @return whether the day continues in a second session after {@link #sessionChangeAt()} messages. */
    public boolean changesSession()
    {
        return sessionChangeAt > 0;
    }

    public boolean servesRetransmits()
    {
        return retransmitPort >= 0;
    }
}
