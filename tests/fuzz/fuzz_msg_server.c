/* libFuzzer target: the decoder for messages a server sends (client role). */
#include "msg_fuzz_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return fuzz_stream(data, size, IXP_FROM_SERVER);
}
