#include "redis/commandpolicy.h"

#include <QSet>

namespace LockScope {

bool isReadOnlyCommand(const QList<QByteArray> &argv)
{
    if (argv.isEmpty())
        return false;
    static const QSet<QByteArray> reads = {
        "PING",
        "ECHO",
        "AUTH",
        "SELECT",
        "HELLO",
        "QUIT",
        "TIME",
        "INFO",
        "ROLE",
        "DBSIZE",
        "COMMAND",
        "WAIT",
        "GET",
        "MGET",
        "STRLEN",
        "GETRANGE",
        "EXISTS",
        "TYPE",
        "TTL",
        "PTTL",
        "EXPIRETIME",
        "PEXPIRETIME",
        "OBJECT",
        "SCAN",
        "HGET",
        "HMGET",
        "HGETALL",
        "HEXISTS",
        "HLEN",
        "HKEYS",
        "HVALS",
        "HSCAN",
        "LRANGE",
        "LLEN",
        "LINDEX",
        "SSCAN",
        "SMEMBERS",
        "SCARD",
        "ZRANGE",
        "ZRANGEBYSCORE",
        "ZSCORE",
        "ZCARD",
        "ZSCAN",
        "ZRANK",
        "EVAL_RO",
        "EVALSHA_RO",
        "SUBSCRIBE",
        "UNSUBSCRIBE",
        "PSUBSCRIBE",
        "PUNSUBSCRIBE",
        "SSUBSCRIBE",
        "SUNSUBSCRIBE",
        "PUBSUB",
        "READONLY",
        "ASKING",
    };
    // Commands that are reads only with some subcommands.
    static const QHash<QByteArray, QSet<QByteArray>> readSubcommands = {
        { "CONFIG", { "GET" } },
        { "CLIENT", { "SETNAME", "GETNAME", "ID", "INFO", "LIST" } },
        { "CLUSTER", { "SLOTS", "SHARDS", "NODES", "INFO", "KEYSLOT", "MYID" } },
        { "SENTINEL", { "GET-MASTER-ADDR-BY-NAME", "MASTERS", "MASTER", "REPLICAS", "SLAVES", "SENTINELS" } },
        { "MEMORY", { "USAGE" } },
        { "SCRIPT", { "EXISTS" } },
        { "ACL", { "WHOAMI" } },
    };
    const QByteArray name = argv.first().toUpper();
    if (reads.contains(name))
        return true;
    const auto it = readSubcommands.constFind(name);
    return it != readSubcommands.cend() && argv.size() > 1 && it->contains(argv.at(1).toUpper());
}

} // namespace LockScope
