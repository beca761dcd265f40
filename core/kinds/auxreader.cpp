#include "kinds/auxreader.h"

namespace LockScope {

void AuxReader::command(const QList<QByteArray> &argv, Store store)
{
    m_reads->commands.append(argv);
    m_reads->stores.append({ m_index, std::move(store) });
}

std::optional<RedisValue> replyWithoutKeys(const QList<QByteArray> &argv, QList<QByteArray> *keys)
{
    if (argv.size() < 2)
        return std::nullopt;
    const QByteArray verb = argv.first().toUpper();
    keys->clear();
    if (verb == "EXISTS") {
        *keys = argv.mid(1);
        return RedisValue::integer(0);
    }
    *keys = { argv.at(1) };
    if (verb == "GET" || verb == "HGET")
        return RedisValue::nil();
    if (verb == "LRANGE" || verb == "ZRANGE" || verb == "ZRANGEBYSCORE" || verb == "SMEMBERS" || verb == "HGETALL")
        return RedisValue::array({});
    if (verb == "LLEN" || verb == "ZCARD" || verb == "SCARD" || verb == "HLEN")
        return RedisValue::integer(0);
    if (verb == "PTTL")
        return RedisValue::integer(-2);
    keys->clear();
    return std::nullopt;
}

} // namespace LockScope
