#include "democommand.h"

#include "demo/democlients.h"
#include "local/localredisserver.h"
#include "lock/lockclient.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"
#include "terminationwatcher.h"

#include <QDateTime>
#include <QJsonArray>

namespace LockScope::Cli {

namespace {
bool readCount(const QCommandLineParser &parser, const QString &option, int fallback, int *out)
{
    *out = fallback;
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    *out = parser.value(option).toInt(&ok);
    return ok && *out >= 1 && *out <= 100;
}

QJsonObject timestamped(const QString &event)
{
    return { { QStringLiteral("ts"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
        { QStringLiteral("event"), event } };
}
} // namespace

void DemoCommand::start()
{
    const DemoClientsOptions defaults;
    int clients = 0, locks = 0;
    if (!readCount(m_parser, QStringLiteral("clients"), defaults.clients, &clients)
        || !readCount(m_parser, QStringLiteral("locks"), defaults.locks, &locks)) {
        m_out.error(tr("--clients and --locks take a number from 1 to 100"));
        finish(ExitUsage);
        return;
    }
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("demo refused: read-only mode"))));
        return;
    }
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, &DemoCommand::shutdown);

    const bool ownServer = !m_parser.isSet(QStringLiteral("url")) && !qEnvironmentVariableIsSet("LOCKSCOPE_URL");
    if (ownServer && !startServer())
        return;
    // Connect once before starting anything, so that a wrong URL ends with exit code 3 instead of a stream
    // of failures from every simulated client.
    LockClient *check = makeClient();
    connect(check->connection(), &RedisCommander::ready, this, [this, check, clients, locks] {
        check->deleteLater();
        if (!m_finished && !m_stopping)
            startDemo(clients, locks);
    });
}

bool DemoCommand::startServer()
{
    m_server = new LocalRedisServer(this);
    QString error;
    if (!m_server->start(&error)) {
        m_out.error(tr("cannot start a private redis-server: %1").arg(error));
        finish(ExitConnect);
        return false;
    }
    const ConnectionOptions given = m_connection;
    m_connection = ConnectionOptions::fromUrl(m_server->url());
    m_connection.connectTimeoutMs = given.connectTimeoutMs;
    QJsonObject o = timestamped(QStringLiteral("server-started"));
    o.insert(QStringLiteral("url"), m_server->url());
    o.insert(QStringLiteral("pid"), m_server->pid());
    m_out.object(o,
        tr("started a private redis-server at %1 (it stops when the demo ends; try: lockscope-cli --url %1 ...)")
            .arg(m_server->url()));
    return true;
}

void DemoCommand::startDemo(int clients, int locks)
{
    DemoClientsOptions options;
    options.clients = clients;
    options.locks = locks;
    ConnectionOptions connection = m_connection;
    // Unlike one-shot commands, a long-running demo rides out a restarting server.
    connection.autoReconnect = true;
    m_demo = new DemoClients(connection, options, this);
    connect(m_demo, &DemoClients::demoEvent, this, &DemoCommand::onEvent);
    QStringList names;
    for (const QByteArray &name : m_demo->lockNames())
        names << escapeBytes(name, 200);
    QJsonObject o = timestamped(QStringLiteral("demo-started"));
    o.insert(QStringLiteral("url"), connection.toDisplayUrl());
    o.insert(QStringLiteral("clients"), clients);
    o.insert(QStringLiteral("locks"), QJsonArray::fromStringList(names));
    m_out.object(o,
        tr("demo: %1 simulated clients on %2 at %3; stop with Ctrl+C")
            .arg(clients)
            .arg(names.join(QStringLiteral(", ")), connection.toDisplayTarget()));
    m_demo->start();
}

void DemoCommand::onEvent(const DemoEvent &e)
{
    QJsonObject o { { QStringLiteral("ts"), e.time.toString(Qt::ISODateWithMs) },
        { QStringLiteral("event"), DemoEvent::kindName(e.kind) }, { QStringLiteral("name"), Output::jsonText(e.name) },
        { QStringLiteral("owner"), Output::jsonText(e.owner) }, { QStringLiteral("count"), e.count },
        { QStringLiteral("client"), e.client }, { QStringLiteral("role"), DemoClients::roleKey(e.role) } };
    // ttl_ms as conventions.md has it: the lease just set, the holder's TTL for a waiter, -2 once it is gone.
    const bool gone = (e.kind == DemoEvent::Kind::Released && e.count == 0) || e.kind == DemoEvent::Kind::Lost
        || e.kind == DemoEvent::Kind::Failed;
    o.insert(QStringLiteral("ttl_ms"), gone ? -2 : e.leaseMs);
    if (e.kind == DemoEvent::Kind::Waiting || e.kind == DemoEvent::Kind::GaveUp)
        o.insert(QStringLiteral("wait_ms"), e.waitMs);
    if (!e.detail.isEmpty())
        o.insert(QStringLiteral("detail"), e.detail);
    const QString time = e.time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
    m_out.object(o, time + QLatin1Char(' ') + DemoClients::describe(e));
}

void DemoCommand::shutdown(const QString &reason)
{
    if (m_stopping) {
        // A second Ctrl+C: stop waiting for clean releases.
        finish(ExitDone);
        return;
    }
    m_stopping = true;
    m_out.line(tr("%1: stopping, releasing what the demo clients hold").arg(reason));
    const auto done = [this] {
        if (m_server)
            m_server->stop();
        QJsonObject o = timestamped(QStringLiteral("demo-stopped"));
        m_out.object(o, tr("demo stopped"));
        finish(ExitDone);
    };
    if (!m_demo) {
        done();
        return;
    }
    connect(m_demo, &DemoClients::stopped, this, done);
    m_demo->stop();
}

} // namespace LockScope::Cli
