#include "kinds/auxreader.h"

#include "redis/rediscommander.h"
#include "redis/replyjoin.h"

namespace LockScope {

void AuxReader::command(const QList<QByteArray> &argv, Store store)
{
    m_connection->command(
        argv, m_join->track([snapshots = m_snapshots, index = m_index, store = std::move(store)](const RedisResult &r) {
            store((*snapshots)[index], r);
        }));
}

} // namespace LockScope
