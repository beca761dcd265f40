// The flight recorder writing into PostgreSQL, against the fastest way PostgreSQL takes rows: libpq's COPY of the
// same rows into the same schema, one transaction per recorder batch, on the same server in the same run. The
// recorder is fed by its monitor as bench_recording feeds it (as fast as it takes them); the store's own append (the
// recorder's writer thread without the monitor and the thread) is reported beside it. PostgreSQL is a private server
// started for the run (tests/support/postgresserver.cpp), as the tests start it.
#include "benchcommon.h"
#include "postgresserver.h"
#include "recordingseed.h"
#include "recordingworkload.h"

#include "monitor/lockmonitor.h"
#include "recording/recorder.h"
#include "recording/recordingstore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>

#include <libpq-fe.h>

using namespace LockScope;
using namespace LockScope::Bench;

namespace {
// One transaction per this many rows: the recorder's quarter-second batch at 50,000 events a second.
constexpr int kBatch = 12500;

QString freshRecording(Test::PostgresServer &postgres)
{
    QString error;
    const QString name = postgres.createDatabase(&error);
    if (name.isEmpty())
        fatal(error);
    const QString url = postgres.url(name);
    RecordingStore store; // the schema, as a recording has it
    if (!store.open(url, true, &error))
        fatal(error);
    return url;
}

// The recorder fed by its monitor, unpaced: events a second from the first event handed over to the last on disk.
double throughRecorder(const BenchServer &server, const QString &url, qint64 events, int locks, qint64 *kept)
{
    WorkloadRecorder recorder(server, url);
    QElapsedTimer clock;
    clock.start();
    const qint64 base = QDateTime::currentMSecsSinceEpoch();
    for (qint64 sent = 0; sent < events;) {
        const qint64 due = qMin(events, sent + 5000);
        recorder.send(sent, due, locks, base);
        sent = due;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 0);
    }
    recorder.waitWritten();
    const qint64 done = clock.elapsed();
    *kept = rowsIn(url);
    return double(events) * 1000.0 / double(qMax<qint64>(1, done));
}

double storeAppend(const QString &url, const QList<RecordedEvent> &rows, qint64 *kept)
{
    RecordingStore store;
    QString error;
    if (!store.open(url, true, &error))
        fatal(error);
    QElapsedTimer clock;
    clock.start();
    for (qsizetype from = 0; from < rows.size(); from += kBatch)
        if (!store.append(rows.mid(from, kBatch), &error))
            fatal(error);
    const qint64 done = clock.elapsed();
    *kept = store.eventCount();
    return double(rows.size()) * 1000.0 / double(qMax<qint64>(1, done));
}

// COPY's text format: a backslash, a tab or a line break in a field escaped; bytea as \x and hex (its backslash
// escaped too); NULL as \N, as the store leaves an empty text or a missing previous owner.
void field(QByteArray &line, const QByteArray &text)
{
    if (text.isEmpty()) {
        line += "\\N";
        return;
    }
    for (const char c : text) {
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r')
            line += c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
        else
            line += c;
    }
}

void bytea(QByteArray &line, const QByteArray &bytes, bool nullWhenEmpty)
{
    if (bytes.isEmpty() && nullWhenEmpty)
        line += "\\N";
    else
        line += "\\\\x" + bytes.toHex();
}

double copyLoop(
    const Test::PostgresServer &postgres, const QString &database, const QList<RecordedEvent> &rows, qint64 *kept)
{
    const QByteArray conninfo
        = QStringLiteral("host=127.0.0.1 port=%1 user=lockscope dbname=%2").arg(postgres.port()).arg(database).toUtf8();
    PGconn *conn = PQconnectdb(conninfo.constData());
    if (PQstatus(conn) != CONNECTION_OK)
        fatal(QStringLiteral("libpq: %1").arg(QString::fromLocal8Bit(PQerrorMessage(conn))));
    const auto run = [conn](const char *sql, ExecStatusType expected) {
        PGresult *r = PQexec(conn, sql);
        if (PQresultStatus(r) != expected)
            fatal(
                QStringLiteral("libpq: %1: %2").arg(QLatin1String(sql), QString::fromLocal8Bit(PQerrorMessage(conn))));
        PQclear(r);
    };
    QElapsedTimer clock;
    clock.start();
    QByteArray data;
    for (qsizetype from = 0; from < rows.size(); from += kBatch) {
        run("BEGIN", PGRES_COMMAND_OK);
        run("COPY events (ts, server, type, name, owner, previous_owner, count, ttl_ms, late_ms, kind, library, "
            "detail) FROM STDIN",
            PGRES_COPY_IN);
        data.clear();
        for (qsizetype i = from; i < qMin(rows.size(), from + kBatch); ++i) {
            const RecordedEvent &e = rows.at(i);
            data += QByteArray::number(e.timeMs) + '\t';
            field(data, e.server);
            data += '\t';
            field(data, e.type);
            data += '\t';
            bytea(data, e.name, false);
            data += '\t';
            bytea(data, e.owner, false);
            data += '\t';
            bytea(data, e.previousOwner, true);
            data += '\t' + QByteArray::number(e.count) + '\t' + QByteArray::number(e.ttlMs) + '\t'
                + QByteArray::number(e.lateMs) + '\t';
            field(data, e.kind);
            data += '\t';
            field(data, e.library);
            data += '\t';
            field(data, e.detail.toUtf8());
            data += '\n';
        }
        if (PQputCopyData(conn, data.constData(), int(data.size())) != 1 || PQputCopyEnd(conn, nullptr) != 1)
            fatal(QStringLiteral("libpq COPY: %1").arg(QString::fromLocal8Bit(PQerrorMessage(conn))));
        PGresult *r = PQgetResult(conn);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            fatal(QStringLiteral("libpq COPY: %1").arg(QString::fromLocal8Bit(PQerrorMessage(conn))));
        PQclear(r);
        while ((r = PQgetResult(conn)))
            PQclear(r);
        run("COMMIT", PGRES_COMMAND_OK);
    }
    const qint64 done = clock.elapsed();
    PQfinish(conn);
    *kept = rowsIn(postgres.url(database));
    return double(rows.size()) * 1000.0 / double(qMax<qint64>(1, done));
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_recording_postgres"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The recorder into PostgreSQL against libpq's COPY of the same rows, same server, same run."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("events"), QStringLiteral("events each round records"), QStringLiteral("N"),
        QStringLiteral("300000") });
    parser.addOption(
        { QStringLiteral("locks"), QStringLiteral("distinct locks"), QStringLiteral("N"), QStringLiteral("10000") });
    parser.addOption({ QStringLiteral("rounds"), QStringLiteral("rounds, every other one in reverse order"),
        QStringLiteral("N"), QStringLiteral("3") });
    parser.process(app);
    const qint64 events = parser.value(QStringLiteral("events")).toLongLong();
    const int locks = parser.value(QStringLiteral("locks")).toInt();
    const int rounds = qMax(1, parser.value(QStringLiteral("rounds")).toInt());

    BenchServer server;
    QString error;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);
    Test::PostgresServer postgres;
    if (!postgres.start(&error))
        fatal(error);

    QList<RecordedEvent> rows;
    rows.reserve(events);
    const qint64 base = QDateTime::currentMSecsSinceEpoch();
    for (qint64 i = 0; i < events; ++i)
        rows << RecordedEvent::fromLockEvent(eventAt(i, locks, base + i / 50), server.url().toUtf8(), nullptr);

    std::vector<double> recorder, store, copy, recorderVsCopy;
    qint64 keptRecorder = 0, keptStore = 0, keptCopy = 0;
    for (int round = 0; round < rounds; ++round) {
        double r = 0, s = 0, c = 0;
        const auto measureRecorder
            = [&] { r = throughRecorder(server, freshRecording(postgres), events, locks, &keptRecorder); };
        const auto measureStore = [&] { s = storeAppend(freshRecording(postgres), rows, &keptStore); };
        const auto measureCopy
            = [&] { c = copyLoop(postgres, freshRecording(postgres).section(QLatin1Char('/'), -1), rows, &keptCopy); };
        if (round % 2 == 0) {
            measureRecorder();
            measureStore();
            measureCopy();
        } else {
            measureCopy();
            measureStore();
            measureRecorder();
        }
        recorder.push_back(r);
        store.push_back(s);
        copy.push_back(c);
        recorderVsCopy.push_back(r / c);
        report(QStringLiteral("round %1: recorder %2 events/s, store append %3 rows/s, COPY %4 rows/s")
                   .arg(round + 1)
                   .arg(r, 0, 'f', 0)
                   .arg(s, 0, 'f', 0)
                   .arg(c, 0, 'f', 0));
    }
    printJsonLine(JsonLine()
                      .add(QStringLiteral("bench"), "recording_postgres")
                      .add(QStringLiteral("events"), events)
                      .add(QStringLiteral("rounds"), rounds)
                      .add(QStringLiteral("recorder_events_per_s"), median(recorder))
                      .add(QStringLiteral("recorder_kept"), keptRecorder)
                      .add(QStringLiteral("store_append_rows_per_s"), median(store))
                      .add(QStringLiteral("store_kept"), keptStore)
                      .add(QStringLiteral("baseline"),
                          JsonLine()
                              .add(QStringLiteral("copy_rows_per_s"), median(copy))
                              .add(QStringLiteral("copy_kept"), keptCopy))
                      .add(QStringLiteral("ratio"),
                          JsonLine()
                              .add(QStringLiteral("recorder_vs_copy"), median(recorderVsCopy))
                              .add(QStringLiteral("store_append_vs_copy"), median(store) / median(copy))));
    return 0;
}
