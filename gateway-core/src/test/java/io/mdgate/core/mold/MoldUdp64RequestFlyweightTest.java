package io.mdgate.core.mold;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.mdgate.core.mold.PacketBytes.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MoldUdp64RequestFlyweightTest
{
    private final MoldUdp64RequestFlyweight request = new MoldUdp64RequestFlyweight();

    @Test
    void shouldEncodeARequestAsTwentyBigEndianBytes()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);

        request.wrap(buffer, 0)
            .session(MoldUdp64Session.of("000010059B"))
            .sequenceNumber(0x0000_0001_0203_0405L)
            .requestedCount(0x1234);

        final byte[] expected = new PacketBytes("000010059B", 0x0000_0001_0203_0405L, 0x1234).toBytes();
        assertEquals(MoldUdp64RequestFlyweight.LENGTH, expected.length);
        assertArrayEquals(expected, buffer.byteArray());
    }

    @Test
    void shouldDecodeARequestWrittenByHand()
    {
        final byte[] bytes = new PacketBytes("SESS", 987_654_321_000L, 0xFFFF).toBytes();
        final DirectBuffer readOnly = new UnsafeBuffer(bytes);

        request.wrap(readOnly, 0);

        assertEquals(987_654_321_000L, request.sequenceNumber());
        assertEquals(0xFFFF, request.requestedCount(), "the count is unsigned");
        assertEquals("SESS", request.sessionString());
        assertTrue(request.sessionEquals(MoldUdp64Session.of("SESS")));
        assertFalse(request.sessionEquals(MoldUdp64Session.of("SESX")));
        assertFalse(request.sessionEquals(new byte[3]));
        final byte[] session = new byte[12];
        request.session(session, 2);
        assertArrayEquals(ascii("SESS      "), java.util.Arrays.copyOfRange(session, 2, 12));
    }

    @Test
    void shouldRoundTripAtAnOffset()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        request.wrap(buffer, 31).session(MoldUdp64Session.of("X")).sequenceNumber(5).requestedCount(100);

        final MoldUdp64RequestFlyweight reader = new MoldUdp64RequestFlyweight();
        reader.wrap((DirectBuffer)buffer, 31);

        assertEquals(5, reader.sequenceNumber());
        assertEquals(100, reader.requestedCount());
        assertEquals("X", reader.sessionString());
        assertEquals(0, buffer.getByte(30));
        assertEquals(0, buffer.getByte(51));
    }

    @Test
    void shouldAcceptOnlyDatagramsOfTheRequestLength()
    {
        assertTrue(MoldUdp64RequestFlyweight.isRequestLength(20));
        assertFalse(MoldUdp64RequestFlyweight.isRequestLength(19));
        assertFalse(MoldUdp64RequestFlyweight.isRequestLength(21));
    }

    @Test
    void shouldRefuseASessionThatIsNotTenBytes()
    {
        request.wrap(new UnsafeBuffer(new byte[20]), 0);
        assertThrows(IllegalArgumentException.class, () -> request.session(new byte[4]));
    }
}
