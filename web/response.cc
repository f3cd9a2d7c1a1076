#include "web/response.h"

namespace blogsearch::web {

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
  }
}

std::string serialize_headers(const Response& response) {
  std::string out = "Status: " + std::to_string(response.status) + " " + reason_phrase(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) out += name + ": " + value + "\r\n";
  out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n\r\n";
  return out;
}

std::string serialize(const Response& response, bool head) {
  std::string out = serialize_headers(response);
  if (!head) out += response.body;
  return out;
}

}  // namespace blogsearch::web
