#include "ops/keyspaceevents.h"

#include "redis/keyspaceflags.h"
#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QCoreApplication>

#include <memory>

namespace LockScope::Ops {

namespace {
// CONFIG GET, then CONFIG SET of the same flags with ours added.
void enableOn(RedisCommander *node, std::function<void(const RedisError &)> done)
{
    node->command({ "CONFIG", "GET", "notify-keyspace-events" }, [node, done](const RedisResult &r) {
        if (!r.ok()) {
            done(r.error);
            return;
        }
        const QByteArray flags
            = KeyspaceFlags::withLockEvents(r.value.size() == 2 ? r.value.at(1).bytes() : QByteArray());
        node->command({ "CONFIG", "SET", "notify-keyspace-events", flags },
            [done](const RedisResult &set) { done(set.ok() ? RedisError() : set.error); });
    });
}
} // namespace

void enableKeyspaceEvents(const ConnectionOptions &connection, const QString &url, QObject *context,
    std::function<void(const KeyspaceEventsDone &)> done)
{
    auto finish = [url, done](const RedisError &error) {
        KeyspaceEventsDone d;
        d.error = error;
        d.record = AuditRecord(QStringLiteral("enable-keyspace-events"), url, {}, {});
        d.audited = !error.isError();
        done(d);
    };
    // A read-only connection is a promise not to change the server's configuration: refused with nothing sent.
    if (connection.readOnly) {
        KeyspaceEventsDone d;
        d.error = RedisError(RedisError::Kind::ReadOnly,
            QCoreApplication::translate(
                "LockScope::Ops", "--enable-keyspace-events refused: read-only mode (it runs CONFIG SET)"));
        QMetaObject::invokeMethod(
            context, [done, d] { done(d); }, Qt::QueuedConnection);
        return;
    }
    // In a cluster, notifications are per node: every master is configured.
    auto *writer = new RedisRouter(connection, context);
    QObject::connect(writer, &RedisCommander::disconnected, writer, [writer, finish](const RedisError &error) {
        if (writer->mode() == RedisRouter::Mode::Probing) {
            writer->deleteLater();
            finish(error);
        }
    });
    QObject::connect(writer, &RedisRouter::modeDecided, writer, [writer, finish] {
        const QList<RedisConnection *> nodes = writer->masterConnections();
        auto left = std::make_shared<int>(int(nodes.size()));
        auto failure = std::make_shared<RedisError>();
        for (RedisConnection *node : nodes)
            enableOn(node, [writer, left, failure, finish](const RedisError &error) {
                if (error.isError() && !failure->isError())
                    *failure = error;
                if (--*left == 0) {
                    writer->deleteLater();
                    finish(*failure);
                }
            });
    });
    writer->open();
}

} // namespace LockScope::Ops
