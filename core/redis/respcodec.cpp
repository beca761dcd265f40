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

namespace {
// Decimal digits of n, written backwards from end; returns where they start.
char *decimal(char *end, quint64 n)
{
    do {
        *--end = char('0' + n % 10);
        n /= 10;
    } while (n);
    return end;
}

void appendHeader(QByteArray *out, char kind, quint64 n)
{
    char buffer[24];
    char *const end = buffer + sizeof buffer;
    char *p = end;
    *--p = '\n';
    *--p = '\r';
    p = decimal(p, n);
    *--p = kind;
    out->append(p, end - p);
}
} // namespace

// RESP's request format is an array of bulk strings, "*<n>\r\n" then "$<len>\r\n<bytes>\r\n" each: written here
// straight into the output buffer, because a walk of a million keys sends a million commands and hiredis's
// redisFormatCommandArgv (a malloc and sprintf per argument, then a copy) was an eighth of lockscope-cli list's CPU.
// tst_codec holds it to hiredis's bytes.
void appendCommand(QByteArray *out, const QList<QByteArray> &argv)
{
    qsizetype size = 16;
    for (const QByteArray &a : argv)
        size += a.size() + 24;
    out->reserve(out->size() + size);
    appendHeader(out, '*', quint64(argv.size()));
    for (const QByteArray &a : argv) {
        appendHeader(out, '$', quint64(a.size()));
        out->append(a).append("\r\n", 2);
    }
}

void appendCommand(QByteArray *out, const QList<QByteArray> &head, const QByteArray &key, const QList<QByteArray> &tail)
{
    appendHeader(out, '*', quint64(head.size() + 1 + tail.size()));
    const auto bulk = [out](const QByteArray &a) {
        appendHeader(out, '$', quint64(a.size()));
        out->append(a).append("\r\n", 2);
    };
    for (const QByteArray &a : head)
        bulk(a);
    bulk(key);
    for (const QByteArray &a : tail)
        bulk(a);
}

QByteArray formatCommand(const QList<QByteArray> &argv)
{
    QByteArray bytes;
    appendCommand(&bytes, argv);
    return bytes;
}

} // namespace LockScope
