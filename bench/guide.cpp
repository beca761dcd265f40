// bench_guide: what the guided demo's window costs. One scenario played again and again at T = 3 s, alternately
// headless (what lockscope-cli guide runs) and with the guide window open and drawing, in the same process on the
// same server: how late each timed step's reply comes against its schedule in both, and the window's frame time
// while the scenario plays against the same window's frame time at rest.

#include "benchcommon.h"
#include "guide/guideplayer.h"
#include "guide/guidewindow.h"
#include "guide/scenario.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>
#include <QWindow>

using namespace LockScope;
using namespace LockScope::Bench;
using namespace LockScope::Guide;

namespace {

constexpr int kTimeScaleMs = 3000;
constexpr double kFrameBudgetMs = 16;

// The steps with a time of their own: how late their reply came, in ms.
void collectLateness(const Scenario &scenario, const GuideRecord &r, std::vector<double> *lateness)
{
    if (r.type != GuideRecord::Type::Step || r.step < 1 || r.step > scenario.steps.size())
        return;
    const Step &step = scenario.steps.at(r.step - 1);
    if (step.at < 0 || step.action == Step::Action::Await || step.action == Step::Action::Observe)
        return;
    lateness->push_back(double(r.tMs) - step.at * kTimeScaleMs);
}

// Headless: the player alone, as the CLI runs it.
void playHeadless(const ConnectionOptions &server, const Scenario &scenario, std::vector<double> *lateness)
{
    GuidePlayer::Options options;
    options.timeScaleMs = kTimeScaleMs;
    GuidePlayer player(server, options);
    QEventLoop loop;
    QObject::connect(
        &player, &GuidePlayer::record, &player, [&](const GuideRecord &r) { collectLateness(scenario, r, lateness); });
    QObject::connect(&player, &GuidePlayer::finished, &loop, [&](int unexpected, const QString &error) {
        if (!error.isEmpty() || unexpected > 0)
            fatal(QStringLiteral("headless %1: %2 unexpected, %3")
                      .arg(QString::fromLatin1(scenario.id))
                      .arg(unexpected)
                      .arg(error));
        loop.quit();
    });
    player.play(scenario);
    loop.exec();
}

// Paints the whole window now and returns how long it took, in ms.
double paintOnce(QWidget *window)
{
    const qint64 start = nowNs();
    window->repaint();
    return double(nowNs() - start) / 1e6;
}

// With the window: it plays the scenario and draws at its own 20 frames a second. With frames set, a 60 Hz timer
// also repaints it whole and times each paint (an upper bound of a frame: the window itself redraws only its stage).
void playInWindow(
    GuideWindow *window, const Scenario &scenario, std::vector<double> *lateness, std::vector<double> *frames)
{
    QEventLoop loop;
    QTimer vsync;
    vsync.setInterval(1000 / 60);
    if (frames)
        QObject::connect(&vsync, &QTimer::timeout, window, [&] { frames->push_back(paintOnce(window)); });
    QMetaObject::Connection records = QObject::connect(
        window->logModel(), &QAbstractItemModel::rowsInserted, window, [&](const QModelIndex &, int first, int last) {
            for (int row = first; row <= last; ++row)
                collectLateness(scenario, window->logModel()->recordAt(row), lateness);
        });
    QObject::connect(window, &GuideWindow::finished, &loop, [&](int unexpected, const QString &error) {
        if (!error.isEmpty() || unexpected > 0)
            fatal(QStringLiteral("window %1: %2 unexpected, %3")
                      .arg(QString::fromLatin1(scenario.id))
                      .arg(unexpected)
                      .arg(error));
        loop.quit();
    });
    if (frames)
        vsync.start();
    window->play();
    loop.exec();
    QObject::disconnect(records);
}

} // namespace

int main(int argc, char *argv[])
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bench_guide"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The guided demo's window: step lateness with and without it, and its frame time while a scenario plays."));
    parser.addHelpOption();
    addUrlOption(parser);
    parser.addOption({ QStringLiteral("scenario"), QStringLiteral("the scenario played (default G10: the most events)"),
        QStringLiteral("ID"), QStringLiteral("G10") });
    parser.addOption({ QStringLiteral("rounds"), QStringLiteral("interleaved rounds of each"), QStringLiteral("N"),
        QStringLiteral("3") });
    parser.addOption({ QStringLiteral("actor"),
        QStringLiteral("lockscope-cli, for the scenarios with a process client"), QStringLiteral("PATH") });
    parser.process(app);
    const Scenario *scenario = findScenario(parser.value(QStringLiteral("scenario")));
    const int rounds = parser.value(QStringLiteral("rounds")).toInt();
    if (!scenario || rounds <= 0)
        fatal(QStringLiteral("--scenario must name a scenario and --rounds be positive"));

    QString error;
    BenchServer server;
    if (!server.open(parser.value(QStringLiteral("url")), &error))
        fatal(error);

    // The window on the same server, as the console shares its private one.
    GuideWindow window(server.options());
    window.setActorProgram(parser.value(QStringLiteral("actor")), { QStringLiteral("guide-actor") });
    window.setTimeScaleMs(kTimeScaleMs);
    window.selectScenario(QString::fromLatin1(scenario->id));
    window.show();
    QDeadlineTimer exposed(10000);
    while (!(window.windowHandle() && window.windowHandle()->isExposed()) && !exposed.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    QCoreApplication::processEvents();

    // The same window at rest (the last round's picture on screen), painted as often: the frame baseline.
    std::vector<double> idleFrames;
    for (int i = 0; i < 120; ++i)
        idleFrames.push_back(paintOnce(&window));

    std::vector<double> headless, windowed, frames, instrumented;
    for (int round = 0; round < rounds; ++round) {
        playHeadless(server.options(), *scenario, &headless);
        playInWindow(&window, *scenario, &windowed, nullptr);
        playInWindow(&window, *scenario, &instrumented, &frames);
        report(QStringLiteral("round %1: %2 timed steps headless, %3 with the window, %4 frames")
                   .arg(round + 1)
                   .arg(headless.size())
                   .arg(windowed.size())
                   .arg(frames.size()));
    }
    const double headlessP50 = median(headless), headlessP95 = percentile(headless, 95);
    const double windowP50 = median(windowed), windowP95 = percentile(windowed, 95);
    const double frameP50 = median(frames), frameP95 = percentile(frames, 95), frameMax = percentile(frames, 100);
    const double idleP95 = percentile(idleFrames, 95);
    report(QStringLiteral("step lateness p50/p95: headless %1/%2 ms, with the window %3/%4 ms")
               .arg(headlessP50, 0, 'f', 2)
               .arg(headlessP95, 0, 'f', 2)
               .arg(windowP50, 0, 'f', 2)
               .arg(windowP95, 0, 'f', 2));
    report(QStringLiteral("frame p50/p95/max while playing %1/%2/%3 ms; at rest p95 %4 ms")
               .arg(frameP50, 0, 'f', 2)
               .arg(frameP95, 0, 'f', 2)
               .arg(frameMax, 0, 'f', 2)
               .arg(idleP95, 0, 'f', 2));

    // Lateness is a few ms: a floor of 1 ms keeps the ratio about what a viewer could notice.
    const auto floor1 = [](double v) { return std::max(v, 1.0); };
    JsonLine baseline;
    baseline.add(QStringLiteral("headless_step_late_p50_ms"), headlessP50)
        .add(QStringLiteral("headless_step_late_p95_ms"), headlessP95)
        .add(QStringLiteral("idle_frame_p95_ms"), idleP95)
        .add(QStringLiteral("frame_budget_ms"), kFrameBudgetMs);
    JsonLine ratio;
    ratio.add(QStringLiteral("headless_vs_window_step_late_p95"), floor1(headlessP95) / floor1(windowP95))
        .add(QStringLiteral("idle_vs_playing_frame_p95"), idleP95 / std::max(frameP95, 1e-3))
        .add(QStringLiteral("frame_budget_vs_playing_frame_p95"), kFrameBudgetMs / std::max(frameP95, 1e-3));
    JsonLine json;
    json.add(QStringLiteral("bench"), "guide")
        .add(QStringLiteral("scenario"), QString::fromLatin1(scenario->id))
        .add(QStringLiteral("time_scale_ms"), kTimeScaleMs)
        .add(QStringLiteral("rounds"), rounds)
        .add(QStringLiteral("timed_steps"), int(headless.size() + windowed.size()))
        .add(QStringLiteral("frames"), int(frames.size()))
        .add(QStringLiteral("window_step_late_p50_ms"), windowP50)
        .add(QStringLiteral("window_step_late_p95_ms"), windowP95)
        .add(QStringLiteral("playing_frame_p50_ms"), frameP50)
        .add(QStringLiteral("playing_frame_p95_ms"), frameP95)
        .add(QStringLiteral("playing_frame_max_ms"), frameMax)
        .add(QStringLiteral("baseline"), baseline)
        .add(QStringLiteral("ratio"), ratio);
    printJsonLine(json);
    return 0;
}
