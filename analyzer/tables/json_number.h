/* json_number.h - a measured number in JSON: the value, or null when it is unknown
 * (NAN) or not finite, as every JSON file chokepoint writes has it. */
#ifndef CP_TABLES_JSON_NUMBER_H
#define CP_TABLES_JSON_NUMBER_H

#include <jansson.h>
#include <math.h>

/* A new reference to a JSON real for x, or to null when x is not finite. */
static inline json_t *json_number_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

#endif
