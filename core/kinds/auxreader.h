#pragma once

#include "kinds/lockclassifier.h"
#include "redis/redisresult.h"

#include <functional>
#include <memory>

namespace LockScope {

class RedisCommander;
class ReplyJoin;

// What a layout uses to read, for one lock hash candidate of a scanner batch, the keys beside it that its
// fingerprint needs (a fencing token, a fair queue, readers' timeout keys). The commands join the batch's pipeline;
// each answer is written into the candidate's snapshot before classification runs.
class AuxReader
{
public:
    using Store = std::function<void(KeySnapshot &, const RedisResult &)>;

    AuxReader(RedisCommander *connection, ReplyJoin *join, std::shared_ptr<QList<KeySnapshot>> snapshots, int index)
        : m_connection(connection)
        , m_join(join)
        , m_snapshots(std::move(snapshots))
        , m_index(index)
    { }

    const KeySnapshot &snapshot() const { return m_snapshots->at(m_index); }
    void command(const QList<QByteArray> &argv, Store store);

private:
    RedisCommander *m_connection;
    ReplyJoin *m_join;
    std::shared_ptr<QList<KeySnapshot>> m_snapshots;
    int m_index;
};

} // namespace LockScope
