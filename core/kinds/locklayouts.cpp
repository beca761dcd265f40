#include "kinds/locklayouts.h"

#include "kinds/countdownlatch/countdownlatchlayout.h"
#include "kinds/expirablesemaphore/expirablesemaphorelayout.h"
#include "kinds/fair/fairlayout.h"
#include "kinds/fenced/fencedlayout.h"
#include "kinds/hashreading.h"
#include "kinds/hashrecognition.h"
#include "kinds/readwrite/readwritelayout.h"
#include "kinds/redissemaphore/permitsetlayout.h"
#include "kinds/reentrant/reentrantlayout.h"
#include "kinds/semaphore/semaphorelayout.h"
#include "kinds/sidekiq/uniquejoblayout.h"
#include "kinds/string/stringlayout.h"
#include "kinds/symfony/tokensetlayout.h"

#include <QCoreApplication>

#include <algorithm>

namespace LockScope::LockLayouts {

const QList<const LockLayout *> &all()
{
    // Stateless: one of each for the life of the process, built on first use from any thread (a magic static).
    static const ReentrantLayout reentrant;
    static const FencedLayout fenced;
    static const FairLayout fair;
    static const ReadWriteLayout readWrite;
    static const ExpirableSemaphoreLayout expirableSemaphore;
    static const CountDownLatchLayout countDownLatch;
    static const SemaphoreLayout semaphore;
    static const PermitSetLayout permitSet;
    static const TokenSetLayout tokenSet;
    static const UniqueJobLayout uniqueJob;
    static const StringLayout string;
    // Redisson's counters before the string layout, which would call their integers data; the order among them is
    // the order their fingerprints are tried (a permit set, then a latch's listeners, then a plain semaphore).
    static const QList<const LockLayout *> layouts { &reentrant, &fenced, &fair, &readWrite, &expirableSemaphore,
        &countDownLatch, &semaphore, &permitSet, &tokenSet, &uniqueJob, &string };
    return layouts;
}

const LockLayout *forKind(LockInfo::Kind kind)
{
    for (const LockLayout *layout : all())
        if (layout->kind() == kind)
            return layout;
    return nullptr;
}

const LockLayout &forRecord(LockInfo::Kind kind)
{
    const LockLayout *layout = forKind(kind);
    return layout ? *layout : *all().first();
}

QByteArray hashReleaseChannel(const KeySnapshot &snapshot)
{
    HashReading fields;
    for (const auto &[field, value] : snapshot.fields)
        if (field == "mode")
            fields.mode = value;
    KeySnapshot known;
    known.name = snapshot.name;
    if (const LockLayout *layout = HashRecognition::classify(known, fields))
        return layout->recogniser().releaseChannel(snapshot.name);
    return all().first()->recogniser().releaseChannel(snapshot.name);
}

QList<LockInfo::Kind> listedKinds()
{
    QList<LockInfo::Kind> kinds;
    for (const LockLayout *layout : all())
        kinds << layout->kind();
    return kinds << LockInfo::Kind::Unknown;
}

QString kindText(LockInfo::Kind kind)
{
    if (const LockLayout *layout = forKind(kind))
        return QCoreApplication::translate("LockScope::LockTableModel", layout->label());
    return kind == LockInfo::Kind::Unknown ? QCoreApplication::translate("LockScope::LockTableModel", "unknown")
                                           : QString();
}

QString kindText(const QByteArray &kindName)
{
    for (const LockInfo::Kind kind : listedKinds())
        if (LockInfo::kindName(kind) == kindName)
            return kindText(kind);
    return QString::fromLatin1(kindName);
}

QString modeText(const QByteArray &mode)
{
    if (mode == "read")
        return QCoreApplication::translate("LockScope::LockTableModel", "read");
    if (mode == "write")
        return QCoreApplication::translate("LockScope::LockTableModel", "write");
    return QString::fromLatin1(mode);
}

QList<ScanCursor> scanCursors(const DiscoveryScope &scope)
{
    QList<ScanCursor> cursors;
    for (const LockLayout *layout : all()) {
        for (const ScanCursor &cursor : layout->recogniser().scanCursors(scope)) {
            // Layouts that walk the same type the same way share the walk: their filters join (one with none takes
            // every key its MATCH lets through, and so does the shared walk).
            const auto same = std::find_if(cursors.begin(), cursors.end(), [&cursor](const ScanCursor &c) {
                return c.pattern == cursor.pattern && c.type == cursor.type && c.read == cursor.read;
            });
            if (same == cursors.end()) {
                cursors << cursor;
            } else if (same->filter.isEmpty() || cursor.filter.isEmpty()) {
                same->filter.clear();
            } else {
                for (const QByteArray &glob : cursor.filter)
                    if (!same->filter.contains(glob))
                        same->filter << glob;
            }
        }
    }
    return cursors;
}

const LockLayout &forMode(LockMode mode)
{
    for (const LockLayout *layout : all())
        if (layout->actionModes().contains(mode))
            return *layout;
    Q_UNREACHABLE(); // every LockMode is some layout's mode (tst_conformance checks it)
}

bool mayOutliveItsKey(const QByteArray &name)
{
    const QList<const LockLayout *> &layouts = all();
    return std::any_of(layouts.cbegin(), layouts.cend(),
        [&name](const LockLayout *layout) { return layout->recogniser().mayOutliveItsKey(name); });
}

const LockActions &actionsFor(LockMode mode)
{
    const LockActions *actions = forMode(mode).lockActions();
    Q_ASSERT(actions); // a layout with a mode or an action kind takes or releases locks (tst_conformance checks it)
    return *actions;
}

LockMode releaseMode(const LockLayout &layout, const QByteArray &owner)
{
    if (const LockActions *actions = layout.lockActions())
        if (const std::optional<LockMode> mode = actions->releaseMode(owner))
            return *mode;
    return layout.actionModes().first();
}

LockInfo::Kind idleKind(const LockLayout &layout)
{
    return layout.recogniser().idleKind().value_or(layout.kind());
}

std::optional<CounterCall> counterCall(const CounterRequest &request, const QByteArray &publish)
{
    for (const LockLayout *layout : all())
        if (const CounterWrites *actions = layout->counterWrites(); actions && layout->allows(request.action))
            if (std::optional<CounterCall> call = actions->counterCall(request, publish))
                return call;
    return std::nullopt;
}

QList<AcquireMode> modes()
{
    QList<AcquireMode> out;
    for (const LockLayout *layout : all())
        out += layout->modes();
    return out;
}

AcquireMode mode(LockMode kind)
{
    for (const AcquireMode &m : modes())
        if (m.kind == kind)
            return m;
    Q_UNREACHABLE();
}

QString wantedText(LockMode kind)
{
    return QCoreApplication::translate("AcquireCheck", mode(kind).wanted);
}

bool modeById(QStringView id, AcquireMode *found)
{
    for (const AcquireMode &m : modes()) {
        if (id == QLatin1String(m.id)) {
            *found = m;
            return true;
        }
    }
    return false;
}

QStringList modeIds()
{
    QStringList ids;
    for (const AcquireMode &m : modes())
        ids << QString::fromLatin1(m.id);
    return ids;
}

} // namespace LockScope::LockLayouts
