/* Words for codes: error codes, REJECT reasons, and the alpha8 symbols of the wire. */
#include <string.h>

#include "mdgate/consumer.h"
#include "mdgate/protocol.h"

const char *mdgate_strerror(int code)
{
    switch (code)
    {
        case MDGATE_OK:
            return "MDGATE_OK: success";
        case MDGATE_E_INVALID_ARGUMENT:
            return "MDGATE_E_INVALID_ARGUMENT: a setting or argument is out of range";
        case MDGATE_E_NO_PUBLISHER:
            return "MDGATE_E_NO_PUBLISHER: no publisher listens on the control socket";
        case MDGATE_E_TIMEOUT:
            return "MDGATE_E_TIMEOUT: the publisher did not answer in time";
        case MDGATE_E_REJECTED:
            return "MDGATE_E_REJECTED: the publisher refused this consumer";
        case MDGATE_E_PROTOCOL:
            return "MDGATE_E_PROTOCOL: the publisher sent a malformed message";
        case MDGATE_E_TRANSPORT:
            return "MDGATE_E_TRANSPORT: a system call of the transport failed";
        case MDGATE_E_NO_MEMORY:
            return "MDGATE_E_NO_MEMORY: allocation or mapping failed";
        case MDGATE_E_NOT_CONNECTED:
            return "MDGATE_E_NOT_CONNECTED: the connection is down";
        case MDGATE_E_CLOSED:
            return "MDGATE_E_CLOSED: the consumer is closed";
        case MDGATE_E_REGION:
            return "MDGATE_E_REGION: a region or log file is missing, too short or refuses the key";
        case MDGATE_E_BACK_PRESSURED:
            return "MDGATE_E_BACK_PRESSURED: the control channel's send queue is full";
        case MDGATE_E_NO_SLOT:
            return "MDGATE_E_NO_SLOT: the instrument has no top-of-book table slot";
        default:
            return "unknown mdgate error code";
    }
}

const char *mdgate_reject_reason_text(int reason)
{
    switch (reason)
    {
        case MDGATE_REJECT_AUTHENTICATION:
            return "authentication failed (unknown consumer or wrong token)";
        case MDGATE_REJECT_VERSION:
            return "unsupported protocol version";
        case MDGATE_REJECT_REGION:
            return "the consumer's region could not be opened or has the wrong size";
        case MDGATE_REJECT_CAPACITY:
            return "the publisher serves its maximum number of consumers";
        default:
            return "invalid request";
    }
}

uint64_t mdgate_pack_symbol(const char *symbol)
{
    const size_t length = strlen(symbol);
    if (length < 1 || length > 8)
    {
        return 0;
    }
    uint64_t packed = 0;
    for (size_t i = 0; i < 8; i++)
    {
        const unsigned char c = i < length ? (unsigned char)symbol[i] : ' ';
        if (c < 0x20 || c > 0x7E || (i < length && c == ' '))
        {
            return 0;
        }
        const unsigned char upper = c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
        packed = (packed << 8) | upper;
    }
    return packed;
}

void mdgate_unpack_symbol(uint64_t packed, char *out)
{
    int end = 0;
    for (int i = 0; i < 8; i++)
    {
        const unsigned char c = (unsigned char)(packed >> ((7 - i) * 8));
        out[i] = c >= 0x20 && c < 0x7F ? (char)c : '?';
        if (out[i] != ' ')
        {
            end = i + 1;
        }
    }
    out[end] = '\0';
}
