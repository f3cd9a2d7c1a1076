"""A one-file HTTPS server with a self-signed certificate, for the fetch test.

tls_server.py CERT KEY DOCROOT PORTFILE: serves DOCROOT on 127.0.0.1 at a
free port, written to PORTFILE once listening. Any client that verifies
certificates must refuse it.
"""
import functools
import http.server
import ssl
import sys

cert, key, docroot, portfile = sys.argv[1:5]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=docroot)
server = http.server.HTTPServer(("127.0.0.1", 0), handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(portfile, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
