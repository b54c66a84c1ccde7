#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mdgate/tick.h"
#include "mdgate/protocol.h"
#include "memory.h"

static const char *const EVENTS[] = {
    NULL, "ADD", "EXECUTE", "EXECUTE_WITH_PRICE", "CANCEL", "DELETE", "REPLACE", "TRADE", "CROSS_TRADE",
    "BROKEN_TRADE", "TOP_OF_BOOK", "TRADING_STATUS", "SYSTEM_EVENT", "INSTRUMENT", "REG_SHO", "IMBALANCE",
    "LULD_COLLAR", "MWCB_LEVEL", "MWCB_STATUS", "IPO_QUOTING", "RETAIL_INTEREST", "DIRECT_LISTING",
    "MARKET_PARTICIPANT", "OPERATIONAL_HALT", "GAP", "SESSION", "LEVEL",
};

static const char *const FLAGS[] = {
    "lineB", "recovered", "lastInMessage", "lastInPacket", "nonPrintable", "quantitySaturated", "priceRescaled",
    "replayed", "bookCrossed", "unknownOrder", "snapshot",
};

/* Appends as snprintf does, keeping the total length needed even once out is full. */
__attribute__((format(printf, 4, 5))) static void append(char *out, size_t length, int *at, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    const size_t used = (size_t)*at < length ? (size_t)*at : length;
    const int written = vsnprintf(out + used, length - used, format, arguments);
    va_end(arguments);
    *at += written < 0 ? 0 : written;
}

int mdgate_tick_json(char *out, size_t length, const uint8_t *tick, const char *symbol)
{
    int at = 0;
    if (length > 0)
    {
        out[0] = '\0';
    }
    append(out, length, &at, "{\"gatewaySequence\":%" PRIu64 ",\"exchangeSequence\":%" PRIu64
        ",\"exchangeTimestamp\":%" PRId64 ",\"receiveTimestamp\":%" PRId64 ",\"instrument\":%u,\"symbol\":",
        mdg_get64(tick), mdg_get64(tick + 8), (int64_t)mdg_get64(tick + 16), (int64_t)mdg_get64(tick + 24),
        mdg_get16(tick + MDGATE_TICK_INSTRUMENT_ID_OFFSET));
    if (NULL == symbol)
    {
        append(out, length, &at, "null");
    }
    else
    {
        append(out, length, &at, "\"%s\"", symbol);
    }
    append(out, length, &at, ",\"sessionId\":%u,\"event\":\"", mdg_get16(tick + 58));
    const uint8_t event = tick[MDGATE_TICK_EVENT_TYPE_OFFSET];
    if (event < sizeof EVENTS / sizeof EVENTS[0] && EVENTS[event] != NULL)
    {
        append(out, length, &at, "%s", EVENTS[event]);
    }
    else
    {
        append(out, length, &at, "UNKNOWN_%u", event);
    }
    const uint8_t side = tick[MDGATE_TICK_SIDE_OFFSET];
    append(out, length, &at, side >= 0x20 && side < 0x7F && side != '"' && side != '\\' ?
        "\",\"side\":\"%c\",\"price\":" : "\",\"side\":\"\\u%04x\",\"price\":", side);
    const int32_t mantissa = (int32_t)mdg_get32(tick + MDGATE_TICK_PRICE_OFFSET);
    if (mantissa == MDGATE_PRICE_NULL)
    {
        append(out, length, &at, "null");
    }
    else
    {
        const int64_t magnitude = mantissa < 0 ? -(int64_t)mantissa : mantissa;
        append(out, length, &at, "\"%s%" PRId64 ".%04" PRId64 "\"", mantissa < 0 ? "-" : "", magnitude / 10000,
            magnitude % 10000);
    }
    append(out, length, &at, ",\"quantity\":%" PRIu32 ",\"orderReference\":%" PRIu64 ",\"matchOrNewReference\":%"
        PRIu64 ",\"flags\":[", mdg_get32(tick + 52), mdg_get64(tick + 32), mdg_get64(tick + 40));
    const uint16_t flags = mdg_get16(tick + MDGATE_TICK_FLAGS_OFFSET);
    int first = 1;
    for (unsigned bit = 0; bit < sizeof FLAGS / sizeof FLAGS[0]; bit++)
    {
        if ((flags & (1u << bit)) != 0)
        {
            append(out, length, &at, first ? "\"%s\"" : ",\"%s\"", FLAGS[bit]);
            first = 0;
        }
    }
    append(out, length, &at, "]}");
    return at;
}
