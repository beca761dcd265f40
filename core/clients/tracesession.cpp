#include "clients/tracesession.h"

#include "redis/redisconnection.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QPointer>
#include <QRandomGenerator>

#include <algorithm>

namespace LockScope {

namespace {

// "used_cpu_sys:0.12\r\nused_cpu_user:0.34\r\n": user + system, in seconds; -1 when the reply has neither.
double cpuSeconds(const QByteArray &info)
{
    double total = 0;
    int found = 0;
    for (const QByteArray &line : info.split('\n')) {
        const QByteArray l = line.trimmed();
        for (const char *field : { "used_cpu_sys:", "used_cpu_user:" }) {
            if (l.startsWith(field)) {
                bool ok = false;
                const double value = l.mid(qsizetype(qstrlen(field))).toDouble(&ok);
                if (ok) {
                    total += value;
                    ++found;
                }
            }
        }
    }
    return found == 2 ? total : -1;
}

QByteArray infoField(const QByteArray &info, const QByteArray &field)
{
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith(field + ':'))
            return line.mid(field.size() + 1).trimmed();
    }
    return {};
}

} // namespace

TraceSession::TraceSession(RedisRouter *router, qint64 durationMs, QObject *parent)
    : QObject(parent)
    , m_router(router)
    , m_durationMs(qBound<qint64>(1, durationMs, maxDurationMs))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &TraceSession::end);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        // A node that has not answered by now will not: MONITOR's +OK before the trace, the reads after it. A MONITOR
        // that has not caught up with the end's mark by now is cut short, and says so.
        const RedisError late(RedisError::Kind::Timeout, tr("the server did not answer in time"));
        bool cut = false;
        for (const auto &node : m_nodes) {
            if (m_state == State::Ending && node->monitor && !node->down) {
                m_findings.partial << tr("MONITOR on %1 had not caught up when the trace ended: its last lines were "
                                         "not read")
                                          .arg(QString::fromUtf8(node->name));
                stopMonitor(node.get());
                cut = true;
            }
        }
        if (cut)
            return;
        for (const auto &node : m_nodes) {
            if (!node->down
                && ((m_state == State::Preparing && !node->monitoring) || (m_state == State::Ending && !node->endRead)))
                nodeDown(node.get(), late);
        }
    });
}

TraceSession::~TraceSession() = default;

void TraceSession::setMaxEntries(int maxEntries)
{
    if (m_state != State::Idle)
        return;
    m_maxEntries = qMax(1, maxEntries);
    m_reader = TraceReader(m_maxEntries);
}

QList<QByteArray> TraceSession::nodes() const
{
    QList<QByteArray> names;
    for (const auto &node : m_nodes)
        names << node->name;
    return names;
}

void TraceSession::start()
{
    if (m_state != State::Idle)
        return;
    m_state = State::Preparing;
    if (m_router->mode() != RedisRouter::Mode::Probing) {
        beginNodes();
        return;
    }
    connect(m_router, &RedisRouter::modeDecided, this, [this] {
        if (m_state == State::Preparing && m_nodes.empty())
            beginNodes();
    });
    connect(m_router, &RedisCommander::disconnected, this, [this](const RedisError &error) {
        if (m_state == State::Preparing && m_nodes.empty() && m_router->mode() == RedisRouter::Mode::Probing)
            finish(error);
    });
    m_router->open();
}

void TraceSession::beginNodes()
{
    m_cluster = m_router->isCluster();
    for (RedisConnection *c : m_router->masterConnections()) {
        auto node = std::make_unique<Node>();
        node->options = c->options();
        node->options.autoReconnect = false; // a node that drops is a partial trace, never a silent gap in it
        node->options.replicaConnection = false;
        node->name = QStringLiteral("%1:%2").arg(node->options.host).arg(node->options.port).toUtf8();
        m_nodes.push_back(std::move(node));
    }
    if (m_nodes.empty()) {
        finish(RedisError(RedisError::Kind::Io, tr("no server to trace")));
        return;
    }
    const ConnectionOptions &o = m_nodes.front()->options;
    m_deadline.start(o.connectTimeoutMs + qMax(o.commandTimeoutMs, 5000) * 2);
    // The router's own connections (its seed, its node connections) are LockScope's, not the server's clients: their
    // ids are left out of the listing too. Only those open or opening are asked (a closed one is not opened for this);
    // they may answer after the session is gone.
    for (RedisConnection *c : m_router->findChildren<RedisConnection *>(Qt::FindDirectChildrenOnly)) {
        const QByteArray name = QStringLiteral("%1:%2").arg(c->options().host).arg(c->options().port).toUtf8();
        const auto node
            = std::find_if(m_nodes.cbegin(), m_nodes.cend(), [&name](const auto &n) { return n->name == name; });
        if (node == m_nodes.cend()
            || (c->state() != RedisConnection::State::Ready && c->state() != RedisConnection::State::Connecting))
            continue;
        c->command({ "CLIENT", "ID" }, [self = QPointer<TraceSession>(this), n = node->get()](const RedisResult &r) {
            if (self && r.ok() && r.value.isInteger())
                n->lockscopeIds.insert(r.value.toInteger());
        });
    }
    for (const auto &node : m_nodes)
        readBefore(node.get());
}

void TraceSession::openInfo(Node *node)
{
    node->info = new RedisConnection(node->options, this);
    connect(node->info, &RedisCommander::disconnected, this, [this, node](const RedisError &error) {
        if (m_state != State::Running) {
            nodeDown(node, error);
            return;
        }
        // Idle while MONITOR runs, it may be closed by the server's idle timeout (a MONITOR connection never is):
        // the end opens another.
        RedisConnection *info = std::exchange(node->info, nullptr);
        disconnect(info, nullptr, this, nullptr);
        info->deleteLater();
    });
    node->info->open();
    node->info->command({ "CLIENT", "SETNAME", connectionName });
    node->info->command({ "CLIENT", "ID" }, [node](const RedisResult &r) {
        if (r.ok() && r.value.isInteger())
            node->infoIds.insert(r.value.toInteger());
    });
}

void TraceSession::readBefore(Node *node)
{
    openInfo(node);
    node->info->command({ "INFO", "server" }, [node](const RedisResult &r) {
        if (r.ok())
            node->runId = infoField(r.value.bytes(), "run_id");
    });
    // MONITOR starts once the CPU used so far is read: everything after it is the trace's, and the workload's.
    node->info->command({ "INFO", "cpu" }, [this, node](const RedisResult &r) {
        if (r.ok())
            node->cpuBeforeS = cpuSeconds(r.value.bytes());
        if (m_state != State::Preparing || node->down)
            return;
        if (r.error.kind() == RedisError::Kind::Io || r.error.kind() == RedisError::Kind::Timeout) {
            nodeDown(node, r.error);
            return;
        }
        startMonitor(node);
    });
}

void TraceSession::startMonitor(Node *node)
{
    node->monitor = new RedisConnection(node->options, this);
    connect(node->monitor, &RedisCommander::disconnected, this,
        [this, node](const RedisError &error) { nodeDown(node, error); });
    node->monitor->setPushHandler([this, node](const RedisValue &value) { onMonitorValue(node, value); });
    node->monitor->open();
    node->monitor->command({ "CLIENT", "SETNAME", connectionName });
    node->monitor->command({ "CLIENT", "ID" }, [node](const RedisResult &r) {
        if (r.ok() && r.value.isInteger())
            node->monitorId = r.value.toInteger();
    });
    // Every reply after these goes to the push handler: MONITOR's +OK (or its refusal), then a line per command.
    node->monitor->sendPush({ "MONITOR" });
}

void TraceSession::onMonitorValue(Node *node, const RedisValue &value)
{
    if (node->down || m_state == State::Idle || m_state == State::Finished)
        return;
    if (!node->monitoring) {
        if (m_state == State::Preparing && value.isStatus() && value.bytes() == "OK") {
            node->monitoring = true;
            checkStarted();
        } else if (m_state == State::Preparing) {
            refused(node, value);
        }
        return;
    }
    if (!value.isStatus())
        return;
    const QByteArray line = value.bytes();
    if (m_state == State::Ending && line.endsWith('"' + m_endMark + '"')) {
        stopMonitor(node);
        return;
    }
    m_reader.read(findingsNode(node), line);
}

void TraceSession::refused(Node *node, const RedisValue &reply)
{
    const QByteArray code = reply.isError() ? reply.errorCode() : QByteArray("PROTOCOL");
    const QString said = reply.isError() ? QString::fromUtf8(reply.bytes()) : reply.toDebugString();
    const QString user
        = node->options.user.isEmpty() ? QStringLiteral("default") : QString::fromUtf8(node->options.user);
    RedisError error;
    if (code == "NOPERM") {
        error = RedisError(RedisError::Kind::Permission,
            tr("MONITOR was refused for user '%1': the trace needs +monitor (in @admin and @dangerous); nothing was "
               "traced")
                .arg(user),
            code);
    } else if (code == "ERR" && said.contains(QLatin1String("unknown command"), Qt::CaseInsensitive)) {
        error = RedisError(RedisError::Kind::Permission,
            tr("MONITOR is not available on %1 (the server answered \"%2\": it was renamed or disabled); nothing was "
               "traced")
                .arg(QString::fromUtf8(node->name), said),
            code);
    } else {
        error = RedisError(RedisError::Kind::Reply,
            tr("MONITOR failed on %1: %2; nothing was traced").arg(QString::fromUtf8(node->name), said), code);
    }
    // Nothing else goes to any server: no CLIENT LIST, no INFO.
    for (const auto &n : m_nodes)
        closeNode(n.get());
    finish(error);
}

void TraceSession::nodeDown(Node *node, const RedisError &error)
{
    if (node->down || m_state == State::Finished || m_state == State::Idle)
        return;
    node->down = true;
    node->error = error;
    m_findings.partial << tr("node %1 down (%2)").arg(QString::fromUtf8(node->name), error.message());
    closeNode(node);
    if (m_state == State::Preparing) {
        checkStarted();
    } else if (m_state == State::Running) {
        const bool anyLeft = std::any_of(m_nodes.cbegin(), m_nodes.cend(), [](const auto &n) { return !n->down; });
        if (!anyLeft)
            end();
    } else if (m_state == State::Ending) {
        node->endRead = true;
        checkEnded();
    }
}

void TraceSession::checkStarted()
{
    if (m_state != State::Preparing)
        return;
    bool anyMonitoring = false;
    for (const auto &node : m_nodes) {
        if (!node->down && !node->monitoring)
            return;
        anyMonitoring = anyMonitoring || node->monitoring;
    }
    if (!anyMonitoring) {
        // No node could be traced: the first one's reason is the error.
        RedisError error = m_nodes.front()->error;
        finish(error.isError() ? error : RedisError(RedisError::Kind::Io, tr("no server could be traced")));
        return;
    }
    m_deadline.stop();
    m_state = State::Running;
    m_wall.start();
    m_findings.startedMs = QDateTime::currentMSecsSinceEpoch();
    m_timer.start(int(m_durationMs));
    emit started();
}

void TraceSession::stop()
{
    if (m_state == State::Idle) {
        m_state = State::Preparing;
        finish({});
    } else if (m_state == State::Preparing) {
        m_findings.partial << tr("stopped before the trace started");
        for (const auto &n : m_nodes)
            closeNode(n.get());
        finish({});
    } else if (m_state == State::Running) {
        end();
    }
}

void TraceSession::end()
{
    if (m_state != State::Running)
        return;
    m_state = State::Ending;
    m_timer.stop();
    m_findings.endedMs = QDateTime::currentMSecsSinceEpoch();
    m_findings.cost.wallMs = m_wall.elapsed();
    // The lines of commands run until now may still be on their way (a busy server's MONITOR output queues up behind
    // a slower reader): a mark is sent, INFO of a section that does not exist, which MONITOR shows and which needs
    // only the right the cost needs anyway. Once a node's MONITOR shows it, everything before it has been read.
    m_endMark = "lockscope-trace-end-" + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    m_deadline.start(drainDeadlineMs());
    for (const auto &node : m_nodes) {
        if (node->down) {
            node->endRead = true;
            continue;
        }
        if (!node->info)
            openInfo(node.get());
        node->info->command({ "INFO", m_endMark }, [this, node = node.get()](const RedisResult &r) {
            // Refused, the mark never shows: what was read is what there is.
            if (!r.ok() && m_state == State::Ending && node->monitor)
                stopMonitor(node);
        });
    }
    checkEnded();
}

void TraceSession::stopMonitor(Node *node)
{
    // MONITOR ends with its connection; only then is the CPU read again, so the reads after it are not counted.
    if (node->monitor) {
        disconnect(node->monitor, nullptr, this, nullptr);
        node->monitor->setPushHandler({});
        node->monitor->close();
        node->monitor->deleteLater();
        node->monitor = nullptr;
    }
    if (node->down || node->endRead)
        return;
    m_findings.cost.wallMs = qMax(m_findings.cost.wallMs, m_wall.elapsed());
    readAfter(node);
    if (std::none_of(m_nodes.cbegin(), m_nodes.cend(), [](const auto &n) { return n->monitor != nullptr; })) {
        // Every node is reading its end: those reads have a deadline of their own.
        m_deadline.start(drainDeadlineMs());
    }
}

int TraceSession::drainDeadlineMs() const
{
    return qMax(m_nodes.front()->options.commandTimeoutMs, 5000) * 2;
}

void TraceSession::readAfter(Node *node)
{
    if (!node->info)
        openInfo(node);
    node->info->command({ "INFO", "cpu" }, [node](const RedisResult &r) {
        if (r.ok())
            node->cpuAfterS = cpuSeconds(r.value.bytes());
    });
    node->info->command({ "CLIENT", "LIST" }, [this, node](const RedisResult &r) {
        if (node->endRead || m_state != State::Ending)
            return;
        node->endRead = true;
        if (r.error.kind() == RedisError::Kind::Permission) {
            m_findings.partial << (m_cluster ? tr("CLIENT LIST denied on %1").arg(QString::fromUtf8(node->name))
                                             : tr("CLIENT LIST denied"));
        } else if (!r.ok() || !r.value.isString()) {
            m_findings.partial << tr("CLIENT LIST failed on %1: %2")
                                      .arg(QString::fromUtf8(node->name),
                                          r.ok() ? tr("an unexpected reply") : r.error.message());
        } else {
            for (const ClientEntry &c : parseClientList(r.value.bytes(), findingsNode(node))) {
                // The session's own connections are no client of the server's.
                if (node->infoIds.contains(c.id) || c.id == node->monitorId || node->lockscopeIds.contains(c.id)
                    || c.name == connectionName)
                    continue;
                m_findings.clients << c;
            }
            m_findings.listedNodes << node->name;
        }
        checkEnded();
    });
}

void TraceSession::checkEnded()
{
    if (m_state != State::Ending)
        return;
    for (const auto &node : m_nodes)
        if (!node->endRead)
            return;
    m_reader.fill(&m_findings);
    double cpu = 0;
    bool anyCpu = false;
    for (const auto &node : m_nodes) {
        m_findings.nodes << node->name;
        if (node->cpuBeforeS >= 0 && node->cpuAfterS >= 0) {
            cpu += node->cpuAfterS - node->cpuBeforeS;
            anyCpu = true;
        }
        if (m_findings.runId.isEmpty())
            m_findings.runId = node->runId;
    }
    m_findings.cost.serverCpuMs = anyCpu ? qint64(cpu * 1000 + 0.5) : -1;
    finish({});
}

void TraceSession::closeNode(Node *node)
{
    for (RedisConnection **c : { &node->monitor, &node->info }) {
        if (!*c)
            continue;
        disconnect(*c, nullptr, this, nullptr);
        (*c)->setPushHandler({});
        (*c)->close();
        (*c)->deleteLater();
        *c = nullptr;
    }
}

void TraceSession::finish(const RedisError &error)
{
    if (m_state == State::Finished)
        return;
    m_state = State::Finished;
    m_timer.stop();
    m_deadline.stop();
    for (const auto &node : m_nodes)
        closeNode(node.get());
    if (error.isError()) {
        emit finished(TraceFindings(), error);
        return;
    }
    emit finished(m_findings, {});
}

QByteArray TraceSession::findingsNode(const Node *node) const
{
    return m_cluster ? node->name : QByteArray();
}

} // namespace LockScope
