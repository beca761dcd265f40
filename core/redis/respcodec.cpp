#include "respcodec.h"

#include <hiredis.h>

#include <cstdlib>
#include <vector>

namespace LockScope {

namespace {
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
    d->reader = redisReaderCreate();
}

void RespReader::feed(const char *data, qsizetype size)
{
    if (size > 0)
        redisReaderFeed(d->reader, data, size_t(size));
}

RespReader::Status RespReader::next(RedisValue *out, QString *error)
{
    void *raw = nullptr;
    if (redisReaderGetReply(d->reader, &raw) != REDIS_OK) {
        if (error)
            *error = QString::fromLocal8Bit(d->reader->errstr);
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
