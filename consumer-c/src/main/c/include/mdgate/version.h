/* libmdgate-consumer: version of the library and of the egress protocol it speaks. */
#ifndef MDGATE_VERSION_H
#define MDGATE_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define MDGATE_EXPORT __attribute__((visibility("default")))

/** The library's version, "MAJOR.MINOR.PATCH". */
MDGATE_EXPORT const char *mdgate_version(void);

#ifdef __cplusplus
}
#endif

#endif
