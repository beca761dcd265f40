// Hostile server bytes. The first byte picks the mode (docs/fuzzing.md):
//   0 (and 3): RESP bytes into RespReader in chunks cut by the second byte, each reply walked through every accessor
//              and reply parser, and compared with the replies of the same bytes fed at once;
//   1: the bytes answered by a loopback peer to a real RedisConnection, every callback checked to run exactly once;
//   2: the same into a RedisSubscriber (subscribe acknowledgements, message, pmessage, smessage, pong).
#include "fuzzinput.h"
#include "fuzzqt.h"
#include "loopbackwire.h"
#include "redis/respcodec.h"
#include "valuewalk.h"

#include <QCoreApplication>

using namespace LockScope;
using namespace LockScope::Fuzz;

namespace {
struct Parsed
{
    QList<RedisValue> replies;
    bool protocolError = false;
};

// Takes every complete reply out; stops for good at a protocol error, as RedisConnection does.
void drain(RespReader &reader, Parsed *parsed)
{
    while (!parsed->protocolError) {
        RedisValue value;
        QString error;
        const auto status = reader.next(&value, &error);
        if (status == RespReader::Status::NeedMore)
            return;
        if (status == RespReader::Status::ProtocolError) {
            FUZZ_CHECK(!error.isEmpty()); // the connection's error message quotes it
            parsed->protocolError = true;
            return;
        }
        walkValue(value);
        parsed->replies << std::move(value);
    }
}

void readerMode(FuzzInput &in)
{
    SeededChoices choices(in.byte());
    const QByteArray bytes = in.rest();

    Parsed chunked;
    RespReader reader;
    for (qsizetype at = 0; at < bytes.size() && !chunked.protocolError;) {
        const qsizetype n = choices.chunk(bytes.size() - at);
        reader.feed(bytes.constData() + at, n);
        at += n;
        drain(reader, &chunked);
    }

    // Where a reply is cut must not change what it is.
    Parsed whole;
    RespReader once;
    once.feed(bytes.constData(), bytes.size());
    drain(once, &whole);
    FUZZ_CHECK(whole.protocolError == chunked.protocolError);
    FUZZ_CHECK(whole.replies == chunked.replies);

    // reset() makes a used reader as good as new (a reconnect reuses it).
    reader.reset();
    Parsed again;
    reader.feed(bytes.constData(), bytes.size());
    drain(reader, &again);
    FUZZ_CHECK(again.replies == whole.replies);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    LockScope::Fuzz::startQt("fuzz_resp");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    switch (in.byte() % 4) {
    case 1:
        runConnection(in);
        break;
    case 2:
        runSubscriber(in);
        break;
    default:
        readerMode(in);
        break;
    }
    return 0;
}
