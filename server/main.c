/* SPDX-License-Identifier: Apache-2.0
 * main: the rivulet binary's entry point; everything happens in srv_main. */
#include "server/server.h"

int
main(int argc, char **argv)
{
    return srv_main(argc, argv);
}
