#pragma once

#include "redis/redisvalue.h"

#include <QByteArray>
#include <QList>
#include <memory>

namespace LockScope {

// RESP2 framing done by hiredis's reader and formatter; hiredis itself stays out of every header.
class RespReader
{
public:
    RespReader();
    ~RespReader();
    RespReader(const RespReader &) = delete;
    RespReader &operator=(const RespReader &) = delete;

    enum class Status { NeedMore, Reply, ProtocolError };

    void feed(const char *data, qsizetype size);
    // Takes the next complete reply out of the buffered bytes. After ProtocolError the stream is unusable.
    Status next(RedisValue *out, QString *error = nullptr);
    void reset();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// The command as RESP bytes (an array of bulk strings); binary-safe. appendCommand() writes them at the end of out.
QByteArray formatCommand(const QList<QByteArray> &argv);
void appendCommand(QByteArray *out, const QList<QByteArray> &argv);
// head, key and tail as one command: a batch of the same command for many keys, with no argument list built per key.
void appendCommand(
    QByteArray *out, const QList<QByteArray> &head, const QByteArray &key, const QList<QByteArray> &tail);

} // namespace LockScope
