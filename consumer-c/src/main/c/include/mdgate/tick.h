/* libmdgate-consumer: a tick as text, for tools and logs (not the hot path). */
#ifndef MDGATE_TICK_H
#define MDGATE_TICK_H

#include <stddef.h>
#include <stdint.h>

#include "mdgate/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the 64-byte tick as one JSON object, the one `mdgate replay --to json` and `mdgate consume` print (Java's
 * TickJson), without a newline; symbol is the instrument's symbol, or NULL for null. Returns the length the object
 * needs, as snprintf does: it was cut short when that is length or more.
 */
MDGATE_EXPORT int mdgate_tick_json(char *out, size_t length, const uint8_t *tick, const char *symbol);

#ifdef __cplusplus
}
#endif

#endif
