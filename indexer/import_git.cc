// import_git.cc: git log + git cat-file --batch, then the archive.
#include "indexer/import_git.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <cstring>
#include <optional>
#include <sstream>

#include "common/ends_with.h"
#include "indexer/archive.h"
#include "indexer/feed_parser.h"

extern char** environ;

namespace blogsearch {

namespace {

struct ProcessResult {
  int status = -1;  // exit status; -1 when it did not exit normally
  std::string out, err;
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Runs argv[0] (looked up in PATH) with `input` on its stdin and collects
// stdout and stderr. One poll loop serves all three pipes, so a child that
// writes a lot before reading all its input cannot deadlock us.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) throw ImportError(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw ImportError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
    throw ImportError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  int to_child = in_pipe[1], from_out = out_pipe[0], from_err = err_pipe[0];
  if (rc != 0) {
    close_fd(to_child);
    close_fd(from_out);
    close_fd(from_err);
    throw ImportError("cannot run " + argv[0] + ": " + std::strerror(rc));
  }
  // A child that exits early must not kill us with SIGPIPE.
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);

  ProcessResult result;
  std::size_t written = 0;
  if (input.empty()) close_fd(to_child);
  else fcntl(to_child, F_SETFL, fcntl(to_child, F_GETFL) | O_NONBLOCK);
  char buf[65536];
  while (from_out >= 0 || from_err >= 0) {
    pollfd fds[3];
    int n = 0;
    if (to_child >= 0) fds[n++] = {to_child, POLLOUT, 0};
    if (from_out >= 0) fds[n++] = {from_out, POLLIN, 0};
    if (from_err >= 0) fds[n++] = {from_err, POLLIN, 0};
    if (poll(fds, static_cast<nfds_t>(n), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == to_child) {
        ssize_t w = ::write(to_child, input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<std::size_t>(w);
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) close_fd(to_child);
      } else {
        ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
        if (r > 0) {
          (fds[i].fd == from_out ? result.out : result.err).append(buf, static_cast<std::size_t>(r));
        } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
          if (fds[i].fd == from_out) close_fd(from_out);
          else close_fd(from_err);
        }
      }
    }
  }
  close_fd(to_child);
  close_fd(from_out);
  close_fd(from_err);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGPIPE, &old, nullptr);
  result.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  return result;
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.empty() ? "no message" : line;
}

struct Commit {
  std::string hash;
  Time time = 0;
};

// The git-scraping archives spell their keys in several ways.
std::string recorded(const nlohmann::json& h, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    auto it = h.find(k);
    if (it != h.end() && it->is_string()) return it->get<std::string>();
  }
  return {};
}

// Objects from one `git cat-file --batch` answer, in request order; a
// missing object is nullopt.
std::vector<std::optional<std::string>> parse_batch(const std::string& out, std::size_t expected) {
  std::vector<std::optional<std::string>> objects;
  std::size_t pos = 0;
  while (objects.size() < expected && pos < out.size()) {
    std::size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) break;
    const std::string line = out.substr(pos, eol - pos);
    pos = eol + 1;
    // "<name> missing": the name is ours and may hold spaces.
    std::istringstream header(line);
    std::string oid, type;
    std::size_t size = 0;
    header >> oid >> type >> size;
    if (ends_with(line, " missing") || ends_with(line, " ambiguous") || !header) {
      objects.emplace_back(std::nullopt);
      continue;
    }
    if (pos + size > out.size()) break;
    objects.emplace_back(type == "blob" ? std::optional<std::string>(out.substr(pos, size)) : std::nullopt);
    pos += size + 1;  // the object is followed by a newline
  }
  if (objects.size() != expected) throw ImportError("git cat-file --batch gave an answer that cannot be read");
  return objects;
}

// What `git cat-file --batch-check` says of one name: a blob of `size`
// bytes, or something else (a tree, nothing).
struct ObjectInfo {
  bool blob = false;
  std::size_t size = 0;
};

std::vector<ObjectInfo> parse_batch_check(const std::string& out, std::size_t expected) {
  std::vector<ObjectInfo> objects;
  std::istringstream lines(out);
  for (std::string line; objects.size() < expected && std::getline(lines, line);) {
    // "<oid> <type> <size>", or "<name> missing" (the name may hold spaces).
    ObjectInfo o;
    std::istringstream header(line);
    std::string oid, type;
    std::size_t size = 0;
    const bool missing = ends_with(line, " missing") || ends_with(line, " ambiguous");
    if (!missing && header >> oid >> type >> size && type == "blob") {
      o.blob = true;
      o.size = size;
    }
    objects.push_back(o);
  }
  if (objects.size() != expected) throw ImportError("git cat-file --batch-check gave an answer that cannot be read");
  return objects;
}

}  // namespace

ImportGitResult import_git_history(const ImportGitOptions& options) {
  const std::string& repo = options.repo;
  std::string path = options.path;
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  if (path.empty() || path.front() == '/' || path.find('\n') != std::string::npos)
    throw ImportError("--path '" + options.path + "' must be a file path relative to the repository root");
  auto warn = [&](const std::string& line) {
    if (options.on_message) options.on_message(line);
  };

  ImportGitResult result;
  // A scraped history can hold thousands of error pages (challenge pages
  // committed hour after hour): the first few are named, the rest counted.
  constexpr long kNotFeedsNamed = 10;
  auto not_a_feed = [&](const std::string& line) {
    if (++result.not_feeds <= kNotFeedsNamed) warn(line);
  };
  const std::size_t slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? std::string() : path.substr(0, slash);
  result.feed_id = options.feed_id;
  if (result.feed_id.empty()) {
    std::string base = folder.substr(folder.rfind('/') == std::string::npos ? 0 : folder.rfind('/') + 1);
    if (base.empty()) base = path.substr(0, path.rfind('.'));
    result.feed_id = feed_slug(base);
  }
  if (result.feed_id.empty() || feed_slug(result.feed_id) != result.feed_id)
    throw ImportError("cannot use '" + result.feed_id + "' as a feed id; name one with --feed");

  ProcessResult check = run_process({options.git, "-C", repo, "rev-parse", "--git-dir"}, "");
  if (check.status != 0) throw ImportError(repo + ": not a git repository (" + first_line(check.err) + ")");

  // Oldest first; a commit that deleted the file has no version to import.
  ProcessResult log = run_process({options.git, "-C", repo, "log", "--reverse", "--topo-order", "--no-renames",
                                   "--diff-filter=ACMRT", "--format=%H %ct", "--", path},
                                  "");
  if (log.status != 0) throw ImportError(repo + ": git log failed: " + first_line(log.err));
  std::vector<Commit> commits;
  std::istringstream lines(log.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    Commit c;
    fields >> c.hash >> c.time;
    if (fields && !c.hash.empty()) commits.push_back(c);
  }
  if (commits.empty()) throw ImportError(repo + ": no commit ever added " + path);
  result.versions = static_cast<long>(commits.size());

  const std::string headers_path = (folder.empty() ? std::string() : folder + "/") + "headers.json";
  auto body_name = [&](std::size_t i) { return commits[i].hash + ":" + path; };
  auto headers_name = [&](std::size_t i) { return commits[i].hash + ":" + headers_path; };

  // The size and type of every version (and headers.json) first, so that
  // no read holds more than kGitReadBytes and nothing over --max-body is
  // read at all.
  std::string request;
  for (std::size_t i = 0; i < commits.size(); ++i) request += body_name(i) + "\n" + headers_name(i) + "\n";
  ProcessResult check_sizes = run_process({options.git, "-C", repo, "cat-file", "--batch-check"}, request);
  if (check_sizes.status != 0) throw ImportError(repo + ": git cat-file failed: " + first_line(check_sizes.err));
  std::vector<ObjectInfo> info = parse_batch_check(check_sizes.out, 2 * commits.size());
  check_sizes = ProcessResult();
  auto readable = [&](const ObjectInfo& o) { return o.blob && o.size <= options.max_body_bytes; };

  std::vector<Snapshot> chunk;
  std::size_t chunk_bytes = 0;
  const std::size_t chunk_versions = std::max<std::size_t>(1, options.chunk_versions);
  auto hand_over = [&] {
    if (chunk.empty()) return;
    result.snapshots += static_cast<long>(chunk.size());
    result.chunks++;
    std::vector<Snapshot> out;
    out.swap(chunk);
    chunk_bytes = 0;
    if (options.on_chunk) options.on_chunk(std::move(out), result.versions);
  };

  for (std::size_t first = 0; first < commits.size();) {
    // The next commits whose versions fit in one read (at least one).
    std::size_t last = first, bytes = 0;
    request.clear();
    std::vector<std::size_t> body_at, headers_at;  // index in `objects`, SIZE_MAX = not read
    std::size_t requested = 0;
    while (last < commits.size()) {
      const ObjectInfo& b = info[2 * last];
      const ObjectInfo& h = info[2 * last + 1];
      std::size_t more = (readable(b) ? b.size : 0) + (readable(h) ? h.size : 0);
      if (last > first && bytes + more > kGitReadBytes) break;
      bytes += more;
      body_at.push_back(SIZE_MAX);
      headers_at.push_back(SIZE_MAX);
      if (readable(b)) {
        body_at.back() = requested++;
        request += body_name(last) + "\n";
      }
      if (readable(h)) {
        headers_at.back() = requested++;
        request += headers_name(last) + "\n";
      }
      ++last;
    }
    std::vector<std::optional<std::string>> objects;
    if (requested > 0) {
      ProcessResult batch = run_process({options.git, "-C", repo, "cat-file", "--batch"}, request);
      if (batch.status != 0) throw ImportError(repo + ": git cat-file failed: " + first_line(batch.err));
      objects = parse_batch(batch.out, requested);
    }

    for (std::size_t i = first; i < last; ++i) {
      const Commit& c = commits[i];
      const std::string label = repo + "@" + c.hash.substr(0, 12) + ":" + path;
      const ObjectInfo& body_info = info[2 * i];
      if (!body_info.blob) {
        warn("warning: " + label + ": not a file, skipped");
        result.unreadable++;
        continue;
      }
      if (body_info.size == 0) {
        not_a_feed("warning: " + label + ": empty, not a feed, skipped");
        continue;
      }
      if (body_info.size > options.max_body_bytes) {
        warn("warning: " + label + ": larger than the snapshot limit of " +
             std::to_string(options.max_body_bytes) + " bytes (--max-body), skipped");
        result.unreadable++;
        continue;
      }
      static const std::optional<std::string> none;
      const std::optional<std::string>& body = objects[body_at[i - first]];
      const std::optional<std::string>& headers_text =
          headers_at[i - first] == SIZE_MAX ? none : objects[headers_at[i - first]];
      if (!body) {  // changed since --batch-check (a repository being rewritten)
        warn("warning: " + label + ": not a file, skipped");
        result.unreadable++;
        continue;
      }
      FetchResponse r;
      r.feed_id = result.feed_id;
      r.fetched_at = c.time;
      r.status = 200;
      r.body = *body;
      nlohmann::json extra = {{"source", "git"}, {"gitCommit", c.hash}, {"gitPath", path}};
      if (headers_text) {
        nlohmann::json h = nlohmann::json::parse(*headers_text, nullptr, false);
        if (h.is_object()) {
          result.with_headers++;
          if (auto s = h.find("status"); s != h.end() && s->is_number_integer()) r.status = s->get<int>();
          r.final_url = recorded(h, {"finalUrl", "final_url", "url"});
          r.etag = recorded(h, {"etag", "ETag"});
          r.last_modified = recorded(h, {"lastModified", "last_modified", "last-modified"});
          r.date = recorded(h, {"date", "Date"});
          r.content_type = recorded(h, {"contentType", "content_type", "content-type"});
          extra["recorded"] = std::move(h);
        } else {
          warn("warning: " + repo + "@" + c.hash.substr(0, 12) + ":" + headers_path + ": not a JSON object, ignored");
        }
      }
      Snapshot snap = snapshot_of(r);
      try {
        parse_feed(*body, label, parse_options_for(snap));
      } catch (const FeedError& e) {
        not_a_feed(std::string("warning: not a feed, skipped: ") + e.what());
        continue;
      }
      ArchivedFile file = archive_snapshot(options.archive_dir, r, extra);
      if (file.existed) result.already_archived++;
      else result.archived++;
      snap.path = file.path;
      chunk_bytes += body->size();
      chunk.push_back(std::move(snap));
      if (chunk.size() >= chunk_versions || chunk_bytes >= kChunkBytes) hand_over();
    }
    first = last;
  }
  hand_over();
  if (result.not_feeds > kNotFeedsNamed)
    warn("warning: " +
         (result.not_feeds - kNotFeedsNamed == 1 ? "1 more version of " + path + " is not a feed"
                                                 : std::to_string(result.not_feeds - kNotFeedsNamed) +
                                                       " more versions of " + path + " are not feeds") +
         ", skipped (not listed)");
  return result;
}

}  // namespace blogsearch
