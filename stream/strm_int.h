/* SPDX-License-Identifier: Apache-2.0
 * strm_int.h: what the files of stream/ share and no other module sees. */
#ifndef STREAM_STRM_INT_H
#define STREAM_STRM_INT_H

#include "stream/stream.h"

/* The engine S was made for (strm_new). */
stor_engine *strm__engine(const strm_state *S);

#endif /* STREAM_STRM_INT_H */
