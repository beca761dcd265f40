#include "redis/respcodec.h"

#include <hiredis.h>

#include <cstdlib>
#include <vector>

namespace LockScope {

namespace {
// hiredis 0.14 allocates an array's element table as soon as the header names its size, so 12 bytes from a broken or
// hostile peer ("*300000000\r\n") would reserve 2.4 GB. No reply LockScope asks for comes near this many elements
// (an HGETALL of an 8-million-field hash would); a larger header is a protocol error instead.
constexpr int kMaxArrayElements = 1 << 24;
thread_local int refusedArrayElements = 0; // set by the reader's callback below, read by next() on its thread

void *(*hiredisCreateArray)(const redisReadTask *, int) = nullptr;

void *createBoundedArray(const redisReadTask *task, int elements)
{
    if (elements > kMaxArrayElements) {
        refusedArrayElements = elements;
        return nullptr; // hiredis stops with an error
    }
    return hiredisCreateArray(task, elements);
}

redisReader *createReader()
{
    redisReader *reader = redisReaderCreate();
    static redisReplyObjectFunctions bounded = [reader] {
        redisReplyObjectFunctions functions = *reader->fn;
        hiredisCreateArray = functions.createArray;
        functions.createArray = createBoundedArray;
        return functions;
    }();
    reader->fn = &bounded;
    return reader;
}

RedisValue toValue(const redisReply *reply)
{
    switch (reply->type) {
    case REDIS_REPLY_STATUS:
        return RedisValue::status(QByteArray(reply->str, int(reply->len)));
    case REDIS_REPLY_ERROR:
        return RedisValue::error(QByteArray(reply->str, int(reply->len)));
    case REDIS_REPLY_INTEGER:
        return RedisValue::integer(reply->integer);
    case REDIS_REPLY_STRING:
        return RedisValue::string(QByteArray(reply->str, int(reply->len)));
    case REDIS_REPLY_ARRAY: {
        QList<RedisValue> elements;
        elements.reserve(qsizetype(reply->elements));
        for (size_t i = 0; i < reply->elements; ++i)
            elements.append(toValue(reply->element[i]));
        return RedisValue::array(std::move(elements));
    }
    case REDIS_REPLY_NIL:
    default:
        return RedisValue::nil();
    }
}
} // namespace

struct RespReader::Private
{
    redisReader *reader = nullptr;
};

RespReader::RespReader()
    : d(std::make_unique<Private>())
{
    reset();
}

RespReader::~RespReader()
{
    if (d->reader)
        redisReaderFree(d->reader);
}

void RespReader::reset()
{
    if (d->reader)
        redisReaderFree(d->reader);
    d->reader = createReader();
}

void RespReader::feed(const char *data, qsizetype size)
{
    if (size > 0)
        redisReaderFeed(d->reader, data, size_t(size));
}

RespReader::Status RespReader::next(RedisValue *out, QString *error)
{
    void *raw = nullptr;
    refusedArrayElements = 0;
    if (redisReaderGetReply(d->reader, &raw) != REDIS_OK) {
        if (error)
            *error = refusedArrayElements > 0 ? QStringLiteral("an array of %1 elements (at most %2 are accepted)")
                                                    .arg(refusedArrayElements)
                                                    .arg(kMaxArrayElements)
                                              : QString::fromLocal8Bit(d->reader->errstr);
        return Status::ProtocolError;
    }
    if (!raw)
        return Status::NeedMore;
    auto *reply = static_cast<redisReply *>(raw);
    *out = toValue(reply);
    freeReplyObject(reply);
    return Status::Reply;
}

QByteArray formatCommand(const QList<QByteArray> &argv)
{
    std::vector<const char *> args;
    std::vector<size_t> lengths;
    args.reserve(size_t(argv.size()));
    lengths.reserve(size_t(argv.size()));
    for (const QByteArray &a : argv) {
        args.push_back(a.constData());
        lengths.push_back(size_t(a.size()));
    }
    char *target = nullptr;
    const int len = redisFormatCommandArgv(&target, int(argv.size()), args.data(), lengths.data());
    if (len < 0 || !target)
        return {};
    QByteArray bytes(target, len);
    redisFreeCommand(target);
    return bytes;
}

} // namespace LockScope
