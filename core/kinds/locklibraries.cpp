#include "kinds/locklibraries.h"

#include "kinds/locklayouts.h"
#include "kinds/string/stringlibrary.h"

namespace LockScope::LockLibraries {

const QList<QByteArray> &ids()
{
    // Built once from the layouts, which are fixed for the life of the process (a magic static, any thread).
    static const QList<QByteArray> all = [] {
        QList<QByteArray> out;
        const auto add = [&out](const QByteArray &id) {
            if (!out.contains(id))
                out << id;
        };
        for (const LockLayout *layout : LockLayouts::all()) {
            // The string layout's locks are named by their own library (kinds/string/stringlibrary.h), each one a
            // library of the registry; "string" is what one is called when none fits.
            if (qstrcmp(layout->library(), kGenericString) == 0)
                for (const StringLibrary *library : StringLibraries::all())
                    add(library->id());
            add(layout->library());
        }
        // The generic id last: it is the "none of the above" of the string locks.
        out.removeAll(QByteArray(kGenericString));
        out << QByteArray(kGenericString);
        return out;
    }();
    return all;
}

bool isKnown(const QByteArray &id)
{
    return ids().contains(id);
}

QList<QByteArray> declarable()
{
    QList<QByteArray> out = ids();
    out.removeAll(QByteArray(kGenericString));
    return out;
}

bool isDeclarable(const QByteArray &id)
{
    return id != kGenericString && isKnown(id);
}

} // namespace LockScope::LockLibraries
