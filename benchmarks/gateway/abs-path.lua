-- Sends absolute-form requests, so wrk can load a forward proxy: wrk connects to the proxy
-- given on its command line and asks for ORIGIN_URL (set by run.sh in the environment).
local url = os.getenv("ORIGIN_URL") or "http://127.0.0.1:18100/small.txt"
local authority = url:match("^http://([^/]+)")
wrk.method = "GET"
wrk.path = url
wrk.headers["Host"] = authority
-- PROXY_AUTH (set by run.sh): the gateway client's credentials, sent to every proxy alike
local auth = os.getenv("PROXY_AUTH")
if auth and auth ~= "" then
  wrk.headers["Proxy-Authorization"] = auth
end
