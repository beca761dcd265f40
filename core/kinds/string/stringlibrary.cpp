#include "kinds/string/stringlibrary.h"

#include "kinds/keyglob.h"
#include "kinds/string/librarylist.h"

#include <algorithm>

namespace LockScope {

namespace TokenShape {

bool hex(const QByteArray &token, int length)
{
    if (token.size() != length)
        return false;
    for (char c : token)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

bool base64(const QByteArray &token, int length, bool urlSafe)
{
    if (token.size() != length)
        return false;
    for (char c : token) {
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alnum && !(urlSafe ? (c == '-' || c == '_') : (c == '+' || c == '/')))
            return false;
    }
    return true;
}

bool uuid(const QByteArray &token)
{
    if (token.size() != 36)
        return false;
    for (int i = 0; i < 36; ++i) {
        const char c = token.at(i);
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-')
                return false;
        } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            return false;
        }
    }
    return true;
}

bool alphanumeric(const QByteArray &token, int length)
{
    if (token.size() != length)
        return false;
    for (char c : token)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return false;
    return true;
}

} // namespace TokenShape

namespace {

bool inDefaults(const StringLibrary *library, const QByteArray &name)
{
    const QList<QByteArray> globs = library->defaultPatterns();
    return std::any_of(globs.cbegin(), globs.cend(), [&name](const QByteArray &g) { return globMatch(g, name); });
}

} // namespace

namespace StringLibraries {

const QList<const StringLibrary *> &all()
{
#define LOCKSCOPE_LIST_STRING_LIBRARY(name) &Libraries::name(),
    static const QList<const StringLibrary *> libraries { LOCKSCOPE_STRING_LIBRARIES(LOCKSCOPE_LIST_STRING_LIBRARY) };
#undef LOCKSCOPE_LIST_STRING_LIBRARY
    return libraries;
}

const StringLibrary *byId(const QByteArray &id)
{
    for (const StringLibrary *library : all())
        if (id == library->id())
            return library;
    return nullptr;
}

QList<QByteArray> defaultPatterns()
{
    QList<QByteArray> globs;
    for (const StringLibrary *library : all())
        for (const QByteArray &glob : library->defaultPatterns())
            if (!globs.contains(glob))
                globs << glob;
    return globs;
}

StringIdentity identify(const QByteArray &name, const QByteArray &token, const QByteArray &declaredLibrary)
{
    StringIdentity id;
    if (const StringLibrary *declared = byId(declaredLibrary)) {
        // The user said whose these names are: that settles it, and the token only adds to the confidence.
        id.library = declared;
        id.named = id.declared = true;
        id.fits = declared->tokenFits(token);
        return id;
    }
    // A fixed prefix with its library's token shape first: the name and the token agree.
    for (const StringLibrary *library : all()) {
        if (!library->defaultPatterns().isEmpty() && inDefaults(library, name) && library->tokenFits(token)) {
            id.library = library;
            id.named = id.fits = true;
            break;
        }
    }
    // Then the libraries that take names as the application gives them: only the token's shape speaks for them, and
    // every other that fits is named beside.
    for (const StringLibrary *library : all()) {
        if (!library->defaultPatterns().isEmpty() || !library->tokenFits(token))
            continue;
        if (id.library) {
            id.others << library;
        } else {
            id.library = library;
            id.fits = true;
        }
    }
    return id;
}

StringWakeUps wakeUps(const QByteArray &name, const QByteArray &token, const StringLockPatterns &patterns)
{
    Q_UNUSED(token);
    StringWakeUps out;
    QByteArray glob;
    const StringLibrary *declared = byId(patterns.declaredLibrary(name, &glob));
    if (declared)
        declared->wakeUps(name, glob, out);
    for (const StringLibrary *library : all())
        if (library != declared && inDefaults(library, name))
            library->wakeUps(name, {}, out);
    return out;
}

} // namespace StringLibraries

} // namespace LockScope
