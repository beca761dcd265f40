#include "metricscommand.h"

#include "recordcommands.h"

#include "recording/recordingstore.h"
#include "stats/statscollector.h"
#include "stats/stuckscan.h"
#include "terminationwatcher.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>

#include <cstdio>

namespace LockScope::Cli {

namespace {
// "HOST:PORT", "[v6]:PORT" or a bare "PORT" (loopback).
bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    QString host = QStringLiteral("127.0.0.1");
    QString portText = text;
    const int colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        host = text.left(colon);
        portText = text.mid(colon + 1);
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
            host = host.mid(1, host.size() - 2);
        if (host == QLatin1String("localhost"))
            host = QStringLiteral("127.0.0.1");
    }
    bool ok = false;
    const uint p = portText.toUInt(&ok);
    if (!ok || p > 65535 || !address->setAddress(host))
        return false;
    *port = quint16(p);
    return true;
}
} // namespace

void ServeMetricsCommand::start()
{
    QHostAddress address(QHostAddress::LocalHost);
    quint16 port = 9464;
    if (m_parser.isSet(QStringLiteral("listen"))
        && !parseListen(m_parser.value(QStringLiteral("listen")), &address, &port)) {
        m_out.error(tr("--listen takes HOST:PORT with HOST an IP address (got \"%1\")")
                        .arg(m_parser.value(QStringLiteral("listen"))));
        finish(ExitUsage);
        return;
    }
    if (!readLimit(20, &m_limit) || !loadReapPolicy())
        return;
    RecorderOptions recording;
    if (!m_parser.isSet(QStringLiteral("no-record")) && !readRecorderOptions(m_parser, m_out, &recording)) {
        finish(ExitUsage);
        return;
    }
    if (!startWatching(true)) {
        finish(ExitUsage);
        return;
    }
    m_server = new QHttpServer(this);
    m_server->route(
        QStringLiteral("/metrics"), QHttpServerRequest::Method::Get, [this](const QHttpServerRequest &request) {
            const QByteArray accept = request.value("Accept");
            const MetricsPage::Format format = metricsFormatFor(accept);
            return QHttpServerResponse(metricsContentType(format), page(accept));
        });
    m_server->route(QStringLiteral("/"), QHttpServerRequest::Method::Get, [] {
        return QHttpServerResponse(QByteArrayLiteral("text/html; charset=utf-8"),
            QByteArrayLiteral("<html><body><a href=\"/metrics\">/metrics</a></body></html>\n"));
    });
    const quint16 bound = m_server->listen(address, port);
    if (bound == 0) {
        m_out.error(
            tr("cannot listen on %1:%2 (in use, or not an address of this machine)").arg(address.toString()).arg(port));
        finish(ExitUsage);
        return;
    }
    if (!address.isLoopback())
        m_out.error(tr("warning: serving on %1, reachable from other machines: the endpoint has no authentication "
                       "and shows lock names")
                        .arg(address.toString()));
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
        ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
        : address.toString();
    const QString url = QStringLiteral("http://%1:%2/metrics").arg(host).arg(bound);
    m_out.object({ { QStringLiteral("listening"), url } }, tr("serving metrics at %1").arg(url));
    std::fflush(stdout);
    // Recording by default: the daemon people already run keeps the story, not only the numbers.
    if (!m_parser.isSet(QStringLiteral("no-record"))) {
        m_recorder = new Recorder(m_monitor, m_connection.auditTarget().toUtf8(), recording, this);
        connect(m_recorder, &Recorder::opened, this,
            [this, path = RecordingStore::shownPath(recording.path)](const QString &error) {
                if (!error.isEmpty()) {
                    m_out.error(tr("%1 (--no-record serves the metrics without recording, --db FILE records elsewhere)")
                                    .arg(error));
                    finish(ExitUsage);
                    return;
                }
                std::fputs((tr("recording to %1").arg(path) + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
            });
        connect(m_recorder, &Recorder::writeFailed, this,
            [this](const QString &error) { m_out.error(tr("warning: could not write the recording: %1").arg(error)); });
        connect(m_recorder, &Recorder::fellBehind, this, [this] {
            m_out.error(tr("warning: the recording fell behind the monitor; what it sees is left out (a gap in the "
                           "recording) until the recording catches up"));
        });
        m_recorder->start();
    }
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] {
        // What was gathered goes to disk before the exit.
        if (m_recorder)
            m_recorder->flush([this] { finish(ExitDone); });
        else
            finish(ExitDone);
    });
}

void ServeMetricsCommand::snapshotReady()
{
    if (!m_stuck) {
        m_stuck = new StuckScan(m_monitor, 15000, 500, this);
        m_stuck->start();
        startReaper();
    }
    const QString text = tr("watching %n lock(s) via %1", nullptr, m_monitor->lockCount())
                             .arg(QString::fromLatin1(LockEventFeed::modeName(m_monitor->mode())));
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

QByteArray ServeMetricsCommand::page(const QByteArray &accept) const
{
    MetricsPage page;
    page.format = metricsFormatFor(accept);
    page.nowMs = StatsCollector::nowMs();
    page.mode = LockEventFeed::modeName(m_monitor->mode());
    page.server = m_connection.toDisplayUrl().toUtf8();
    page.topLocks = m_limit;
    page.gauges = kindGauges(*m_monitor);
    page.stuck = m_stuck ? m_stuck->last() : StuckGauges {};
    page.reap = m_reapGauges;
    return renderMetrics(m_collector->statistics(), page);
}

} // namespace LockScope::Cli
