package io.mdgate.egress;

import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.protocol.SubscriptionFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.WelcomeFlyweight;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.ControlMessages;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The view on the wire, spoken by hand over a real shm control channel: SUBSCRIBE carries it in 48 bytes and the
 * answer repeats it; a 32-byte SUBSCRIBE (a consumer from before views) means ALL; a view byte no view has is
 * answered INVALID and counted, and the session carries on; WELCOME announces the publisher's depth.
 */
@Timeout(30)
class SubscriptionWireTest
{
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[256]);
    private PublisherHarness harness;
    private ShmTransport transport;
    private ControlChannel channel;
    private ControlMessages messages;
    private MemoryRegion region;

    @AfterEach
    void tearDown()
    {
        if (null != channel)
        {
            channel.close();
        }
        if (null != region)
        {
            region.close();
        }
        if (null != transport)
        {
            transport.close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    @Test
    void shouldCarryTheViewBothWaysTakeAnOldSubscribeAsAllAndRefuseAnUnknownViewWithACount()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("raw"),
            context -> context.depthLevels(6));
        transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        channel = transport.connectControl(TimeUnit.SECONDS.toNanos(5));
        messages = new ControlMessages(channel);
        region = transport.registerRegion((int)ConsumerRegionDescriptor.length(16, 4, 3), RegionAccess.REMOTE_WRITE);
        final HelloFlyweight hello = new HelloFlyweight();
        hello.wrapForEncode(scratch, 0, ControlMessageDescriptor.HELLO);
        hello.ringSlots(16).tableSlots(4).depthLevels(3).region(region.remoteKey()).name("raw")
            .token(("raw" + PublisherHarness.TOKEN_SUFFIX).getBytes(StandardCharsets.US_ASCII));
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, HelloFlyweight.LENGTH));

        final byte[] welcome = next(ControlMessageDescriptor.WELCOME);
        assertEquals(WelcomeFlyweight.DEPTH_LENGTH, welcome.length);
        final WelcomeFlyweight welcomed = new WelcomeFlyweight();
        welcomed.wrap(new UnsafeBuffer(welcome), 0);
        assertEquals(6, welcomed.depthLevelsIn(welcome.length), "the publisher's depth");
        assertEquals(0, welcomed.depthLevelsIn(WelcomeFlyweight.LENGTH), "an old WELCOME announces none");

        subscribe(5, 9, SubscriptionFlyweight.VIEW_LENGTH);
        SubscriptionFlyweight answer = answer();
        assertEquals(ControlMessageDescriptor.INVALID, answer.status(), "view 9 is no view");
        Await.until("the invalid view counted", 5, () -> harness.publisher().counters().invalidViews() == 1);

        subscribe(5, SubscriptionView.DEPTH.code(), SubscriptionFlyweight.LENGTH);
        answer = answer();
        assertEquals(ControlMessageDescriptor.SUBSCRIBED, answer.status());
        assertEquals(SubscriptionView.ALL.code(), answer.viewCode(SubscriptionFlyweight.VIEW_LENGTH),
            "a 32-byte SUBSCRIBE carries no view: ALL, whatever lies beyond it");

        subscribe(6, SubscriptionView.DEPTH.code(), SubscriptionFlyweight.VIEW_LENGTH);
        answer = answer();
        assertEquals(ControlMessageDescriptor.SUBSCRIBED, answer.status());
        assertEquals(SubscriptionView.DEPTH.code(), answer.viewCode(SubscriptionFlyweight.VIEW_LENGTH));

        harness.publish(Ticks.add(1, 5, 0));
        harness.publish(Ticks.add(2, 6, 0));
        harness.publish(Ticks.level(3, 6, Side.SELL, 1_000_100, 300, 2, 0));
        harness.publish(Ticks.event(4, 5, EventType.LEVEL));
        harness.publish(Ticks.systemEvent(5, 'Q'));
        Await.until("ticks staged", 5, () -> harness.publisher().counters().ringTicksStaged() >= 4);
        harness.publish(Ticks.systemEvent(6, 'M'));
        Await.until("the last tick staged", 5, () -> harness.publisher().counters().ringTicksStaged() >= 5);
        assertEquals(5, harness.publisher().counters().ringTicksStaged(),
            "ALL on 5 takes its ADD and LEVEL, DEPTH on 6 its LEVEL only, and both system events");
        assertEquals(1, harness.publisher().counters().invalidViews());
        assertEquals(0, harness.publisher().counters().malformedControlMessages());
    }

    @Test
    void shouldNameEveryViewByItsCodeNoneForOtherCodesAndLetMarketWideAndQuoteTicksThroughEveryView()
    {
        for (final SubscriptionView view : SubscriptionView.values())
        {
            assertEquals(view, SubscriptionView.of(view.code()));
            assertEquals(view, SubscriptionView.ofMask(view.mask()));
        }
        assertNull(SubscriptionView.of(4));
        assertNull(SubscriptionView.of(255));
        assertNull(SubscriptionView.of(-1));
        for (final EventType type : new EventType[] { EventType.GAP, EventType.SESSION, EventType.TOP_OF_BOOK,
            EventType.TRADE, EventType.SYSTEM_EVENT })
        {
            for (final SubscriptionView view : SubscriptionView.values())
            {
                assertTrue(view.takes((byte)type.value()), view + " takes " + type);
            }
        }
        assertEquals(SubscriptionView.ORDER, SubscriptionView.classOf((byte)EventType.REPLACE.value()));
        assertEquals(SubscriptionView.LEVEL, SubscriptionView.classOf((byte)EventType.LEVEL.value()));
    }

    private void subscribe(final int instrument, final int viewCode, final int length)
    {
        final SubscriptionFlyweight subscribe = new SubscriptionFlyweight();
        subscribe.wrapForEncode(scratch, 0, ControlMessageDescriptor.SUBSCRIBE);
        subscribe.instrumentId(instrument).tableSlot(-1).view(viewCode);
        assertEquals(TransportResult.OK, channel.offer(scratch, 0, length));
    }

    private SubscriptionFlyweight answer()
    {
        final byte[] message = next(ControlMessageDescriptor.SUBSCRIPTION);
        assertEquals(SubscriptionFlyweight.VIEW_LENGTH, message.length);
        return (SubscriptionFlyweight)new SubscriptionFlyweight().wrap(new UnsafeBuffer(message), 0);
    }

    private byte[] next(final short type)
    {
        return messages.next(type);
    }
}
