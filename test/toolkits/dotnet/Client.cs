// C# with a .NET proxy generated from the WSDL (Mono's wsdl, as Microsoft's wsdl.exe or "Add Web
// Reference" would): class ContactSearch.API for SOAP 1.1 and ContactSearch12.API for SOAP 1.2.
// run.sh generates, compiles and runs it: sh run.sh <endpoint>
using System;
using System.Text.RegularExpressions;
using System.Web.Services.Protocols;
using System.Xml;

static class Client
{
    // The first "name":"value" of a JSON text (a real client would use a JSON library).
    static string First(string json, string name) => Regex.Match(json, "\"" + name + "\":\"([^\"]*)\"").Groups[1].Value;

    static void Row(string binding, string op, string value) =>
        Console.WriteLine(string.Format("{0,-7} {1,-7} {2,-35} {3}", "dotnet", binding, op, value));

    class Call
    {
        public string Op; public Func<object> Invoke; public Func<string, string> Read;
        public Call(string op, Func<object> invoke, Func<string, string> read) { Op = op; Invoke = invoke; Read = read; }
    }

    // api: the SOAP 1.1 or the SOAP 1.2 proxy (two generated classes with the same methods).
    static void Calls(string binding, dynamic api)
    {
        var calls = new[] {
            new Call("GetPredictiveOptionsSearchContacts", () => api.GetPredictiveOptionsSearchContacts("{\"Text\":\"zoë ång\"}", "Demo", "JSON"), r => First(r, "ContactId")),
            new Call("GetPredictiveOptions", () => api.GetPredictiveOptions("{\"Field\":\"City\",\"Text\":\"stockh\"}", "Demo", "JSON"), r => First(r, "Value")),
            new Call("GetSearchResults", () => api.GetSearchResults("{\"Query\":\"john smith\",\"PageSize\":5}", "Demo", "JSON"), r => First(r, "ContactId")),
            new Call("GetSearchResultHeaders", () => api.GetSearchResultHeaders("{\"View\":\"Compact\"}", "Demo", "JSON"), r => First(r, "Field")),
            new Call("GetSearchFilters", () => api.GetSearchFilters("{}", "Demo", "JSON"), r => First(r.Substring(r.IndexOf("\"Field\":\"Country\"")), "Control")),
            new Call("GetRequestSupport", () => api.GetRequestSupport("{\"Request\":\"ImportContacts\"}", "JSON"), r => First(r, "Request")),
            new Call("ProcessRequest", () => api.ProcessRequest("{\"Request\":\"GetContact\",\"DBName\":\"Demo\",\"ContactId\":\"k1\"}"),
                r => Regex.Match(r, "<FirstName>([^<]*)</FirstName>").Groups[1].Value),
        };
        foreach (var c in calls)
        {
            string value;
            try { value = c.Read((string)c.Invoke()); }  // anyType results arrive as string
            catch (Exception e) { value = "ERROR " + e.Message; }
            Row(binding, c.Op, value);
        }
        string fault = "ERROR no fault";
        try { api.GetSearchResults("{}", "NoSuchDb", "JSON"); }
        catch (SoapException e)
        {
            // e.Code is soap:Client (1.1) or soap:Sender (1.2); e.Detail is the detail element.
            var error = (XmlElement)e.Detail["Error"];
            fault = e.Code.Name + " " + error.GetAttribute("Code") + " " + error["Parameter"].InnerText;
        }
        Row(binding, "fault", fault);
    }

    static void Main(string[] args)
    {
        string endpoint = args[0];
        Console.OutputEncoding = new System.Text.UTF8Encoding(false);
        Console.WriteLine(string.Format("{0,-7} {1,-7} {2,-35} {3}", "toolkit", "binding", "operation", "result"));
        Calls("soap11", new ContactSearch.API { Url = endpoint });
        Calls("soap12", new ContactSearch12.API { Url = endpoint });
    }
}
