// Generated from lib/protocols/openai-chat/schema.ts (chatCompletionBodySchema) by scripts/generate-validators.cjs. Do not edit:
// change the schema, then run `node scripts/generate-validators.cjs`.
// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)
import type { GeneratedValidator } from '../shared/validate';
import { ucs2length as func2 } from '../shared/validator-runtime';

export const validate: GeneratedValidator = validate21;
const schema6 = {"type":"object","required":["model","messages"],"properties":{"model":{"type":"string","minLength":1},"messages":{"type":"array","minItems":1,"items":{"type":"object","required":["role"],"properties":{"role":{"enum":["system","developer","user","assistant","tool","function"]},"content":{"type":["string","array","null"],"items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"},"text":{"type":"string"},"image_url":{"type":"object","required":["url"],"properties":{"url":{"type":"string"},"detail":{"type":"string"}}}}}},"name":{"type":"string"},"tool_calls":{"type":["array","null"]},"tool_call_id":{"type":"string"}}}},"stream":{"type":["boolean","null"]},"stream_options":{"type":["object","null"],"properties":{"include_usage":{"type":"boolean"}}},"max_tokens":{"type":["integer","null"],"minimum":1},"max_completion_tokens":{"type":["integer","null"],"minimum":1},"temperature":{"type":["number","null"],"minimum":0,"maximum":2},"top_p":{"type":["number","null"],"minimum":0,"maximum":1},"n":{"type":["integer","null"],"minimum":1,"maximum":128},"stop":{"type":["string","array","null"],"items":{"type":"string"},"maxItems":4},"tools":{"type":["array","null"],"items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"},"function":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"description":{"type":"string"},"parameters":{"type":"object"},"strict":{"type":["boolean","null"]}}}}}},"tool_choice":{"type":["string","object","null"]},"parallel_tool_calls":{"type":["boolean","null"]},"response_format":{"type":["object","null"],"required":["type"],"properties":{"type":{"enum":["text","json_object","json_schema"]},"json_schema":{"type":"object","properties":{"name":{"type":"string"},"schema":{"type":"object"},"strict":{"type":["boolean","null"]}}}}},"reasoning_effort":{"type":["string","null"],"enum":["none","minimal","low","medium","high","xhigh","max",null]},"seed":{"type":["integer","null"]},"user":{"type":"string"},"safety_identifier":{"type":"string"}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if(((data.model === undefined) && (missing0 = "model")) || ((data.messages === undefined) && (missing0 = "messages"))){
validate21.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.model !== undefined){
let data0 = data.model;
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func2(data0) < 1){
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/model",schemaPath:"#/properties/model/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.messages !== undefined){
let data1 = data.messages;
const _errs3 = errors;
if(errors === _errs3){
if(Array.isArray(data1)){
if(data1.length < 1){
validate21.errors = [{instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"}];
return false;
}
else {
var valid1 = true;
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
const _errs5 = errors;
if(errors === _errs5){
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
let missing1;
if((data2.role === undefined) && (missing1 = "role")){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0,schemaPath:"#/properties/messages/items/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data2.role !== undefined){
let data3 = data2.role;
const _errs7 = errors;
if(!((((((data3 === "system") || (data3 === "developer")) || (data3 === "user")) || (data3 === "assistant")) || (data3 === "tool")) || (data3 === "function"))){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/role",schemaPath:"#/properties/messages/items/properties/role/enum",keyword:"enum",params:{allowedValues: schema6.properties.messages.items.properties.role.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid2 = _errs7 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.content !== undefined){
let data4 = data2.content;
const _errs8 = errors;
if(((typeof data4 !== "string") && (!(Array.isArray(data4)))) && (data4 !== null)){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content",schemaPath:"#/properties/messages/items/properties/content/type",keyword:"type",params:{type: schema6.properties.messages.items.properties.content.type},message:"must be string,array,null"}];
return false;
}
if(errors === _errs8){
if(Array.isArray(data4)){
var valid3 = true;
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
let data5 = data4[i1];
const _errs10 = errors;
if(errors === _errs10){
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
let missing2;
if((data5.type === undefined) && (missing2 = "type")){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1,schemaPath:"#/properties/messages/items/properties/content/items/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data5.type !== undefined){
const _errs12 = errors;
if(typeof data5.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/type",schemaPath:"#/properties/messages/items/properties/content/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs12 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data5.text !== undefined){
const _errs14 = errors;
if(typeof data5.text !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/text",schemaPath:"#/properties/messages/items/properties/content/items/properties/text/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs14 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data5.image_url !== undefined){
let data8 = data5.image_url;
const _errs16 = errors;
if(errors === _errs16){
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
let missing3;
if((data8.url === undefined) && (missing3 = "url")){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/image_url",schemaPath:"#/properties/messages/items/properties/content/items/properties/image_url/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data8.url !== undefined){
const _errs18 = errors;
if(typeof data8.url !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/image_url/url",schemaPath:"#/properties/messages/items/properties/content/items/properties/image_url/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid5 = _errs18 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data8.detail !== undefined){
const _errs20 = errors;
if(typeof data8.detail !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/image_url/detail",schemaPath:"#/properties/messages/items/properties/content/items/properties/image_url/properties/detail/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid5 = _errs20 === errors;
}
else {
var valid5 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1+"/image_url",schemaPath:"#/properties/messages/items/properties/content/items/properties/image_url/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid4 = _errs16 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/content/" + i1,schemaPath:"#/properties/messages/items/properties/content/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid3 = _errs10 === errors;
if(!valid3){
break;
}
}
}
}
var valid2 = _errs8 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.name !== undefined){
const _errs22 = errors;
if(typeof data2.name !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/name",schemaPath:"#/properties/messages/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs22 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.tool_calls !== undefined){
let data12 = data2.tool_calls;
const _errs24 = errors;
if((!(Array.isArray(data12))) && (data12 !== null)){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/tool_calls",schemaPath:"#/properties/messages/items/properties/tool_calls/type",keyword:"type",params:{type: schema6.properties.messages.items.properties.tool_calls.type},message:"must be array,null"}];
return false;
}
var valid2 = _errs24 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data2.tool_call_id !== undefined){
const _errs26 = errors;
if(typeof data2.tool_call_id !== "string"){
validate21.errors = [{instancePath:instancePath+"/messages/" + i0+"/tool_call_id",schemaPath:"#/properties/messages/items/properties/tool_call_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs26 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages/" + i0,schemaPath:"#/properties/messages/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid1 = _errs5 === errors;
if(!valid1){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stream !== undefined){
let data14 = data.stream;
const _errs28 = errors;
if((typeof data14 !== "boolean") && (data14 !== null)){
validate21.errors = [{instancePath:instancePath+"/stream",schemaPath:"#/properties/stream/type",keyword:"type",params:{type: schema6.properties.stream.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs28 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stream_options !== undefined){
let data15 = data.stream_options;
const _errs30 = errors;
if((!(data15 && typeof data15 == "object" && !Array.isArray(data15))) && (data15 !== null)){
validate21.errors = [{instancePath:instancePath+"/stream_options",schemaPath:"#/properties/stream_options/type",keyword:"type",params:{type: schema6.properties.stream_options.type},message:"must be object,null"}];
return false;
}
if(errors === _errs30){
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
if(data15.include_usage !== undefined){
if(typeof data15.include_usage !== "boolean"){
validate21.errors = [{instancePath:instancePath+"/stream_options/include_usage",schemaPath:"#/properties/stream_options/properties/include_usage/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
}
}
}
var valid0 = _errs30 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.max_tokens !== undefined){
let data17 = data.max_tokens;
const _errs34 = errors;
if((!((typeof data17 == "number") && (!(data17 % 1) && !isNaN(data17)))) && (data17 !== null)){
validate21.errors = [{instancePath:instancePath+"/max_tokens",schemaPath:"#/properties/max_tokens/type",keyword:"type",params:{type: schema6.properties.max_tokens.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs34){
if(typeof data17 == "number"){
if(data17 < 1 || isNaN(data17)){
validate21.errors = [{instancePath:instancePath+"/max_tokens",schemaPath:"#/properties/max_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs34 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.max_completion_tokens !== undefined){
let data18 = data.max_completion_tokens;
const _errs36 = errors;
if((!((typeof data18 == "number") && (!(data18 % 1) && !isNaN(data18)))) && (data18 !== null)){
validate21.errors = [{instancePath:instancePath+"/max_completion_tokens",schemaPath:"#/properties/max_completion_tokens/type",keyword:"type",params:{type: schema6.properties.max_completion_tokens.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs36){
if(typeof data18 == "number"){
if(data18 < 1 || isNaN(data18)){
validate21.errors = [{instancePath:instancePath+"/max_completion_tokens",schemaPath:"#/properties/max_completion_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs36 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.temperature !== undefined){
let data19 = data.temperature;
const _errs38 = errors;
if((!(typeof data19 == "number")) && (data19 !== null)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/type",keyword:"type",params:{type: schema6.properties.temperature.type},message:"must be number,null"}];
return false;
}
if(errors === _errs38){
if(typeof data19 == "number"){
if(data19 > 2 || isNaN(data19)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/maximum",keyword:"maximum",params:{comparison: "<=", limit: 2},message:"must be <= 2"}];
return false;
}
else {
if(data19 < 0 || isNaN(data19)){
validate21.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs38 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.top_p !== undefined){
let data20 = data.top_p;
const _errs40 = errors;
if((!(typeof data20 == "number")) && (data20 !== null)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/type",keyword:"type",params:{type: schema6.properties.top_p.type},message:"must be number,null"}];
return false;
}
if(errors === _errs40){
if(typeof data20 == "number"){
if(data20 > 1 || isNaN(data20)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1"}];
return false;
}
else {
if(data20 < 0 || isNaN(data20)){
validate21.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs40 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.n !== undefined){
let data21 = data.n;
const _errs42 = errors;
if((!((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21)))) && (data21 !== null)){
validate21.errors = [{instancePath:instancePath+"/n",schemaPath:"#/properties/n/type",keyword:"type",params:{type: schema6.properties.n.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs42){
if(typeof data21 == "number"){
if(data21 > 128 || isNaN(data21)){
validate21.errors = [{instancePath:instancePath+"/n",schemaPath:"#/properties/n/maximum",keyword:"maximum",params:{comparison: "<=", limit: 128},message:"must be <= 128"}];
return false;
}
else {
if(data21 < 1 || isNaN(data21)){
validate21.errors = [{instancePath:instancePath+"/n",schemaPath:"#/properties/n/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid0 = _errs42 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stop !== undefined){
let data22 = data.stop;
const _errs44 = errors;
if(((typeof data22 !== "string") && (!(Array.isArray(data22)))) && (data22 !== null)){
validate21.errors = [{instancePath:instancePath+"/stop",schemaPath:"#/properties/stop/type",keyword:"type",params:{type: schema6.properties.stop.type},message:"must be string,array,null"}];
return false;
}
if(errors === _errs44){
if(Array.isArray(data22)){
if(data22.length > 4){
validate21.errors = [{instancePath:instancePath+"/stop",schemaPath:"#/properties/stop/maxItems",keyword:"maxItems",params:{limit: 4},message:"must NOT have more than 4 items"}];
return false;
}
else {
var valid7 = true;
const len2 = data22.length;
for(let i2=0; i2<len2; i2++){
const _errs46 = errors;
if(typeof data22[i2] !== "string"){
validate21.errors = [{instancePath:instancePath+"/stop/" + i2,schemaPath:"#/properties/stop/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid7 = _errs46 === errors;
if(!valid7){
break;
}
}
}
}
}
var valid0 = _errs44 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tools !== undefined){
let data24 = data.tools;
const _errs48 = errors;
if((!(Array.isArray(data24))) && (data24 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: schema6.properties.tools.type},message:"must be array,null"}];
return false;
}
if(errors === _errs48){
if(Array.isArray(data24)){
var valid8 = true;
const len3 = data24.length;
for(let i3=0; i3<len3; i3++){
let data25 = data24[i3];
const _errs50 = errors;
if(errors === _errs50){
if(data25 && typeof data25 == "object" && !Array.isArray(data25)){
let missing4;
if((data25.type === undefined) && (missing4 = "type")){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3,schemaPath:"#/properties/tools/items/required",keyword:"required",params:{missingProperty: missing4},message:"must have required property '"+missing4+"'"}];
return false;
}
else {
if(data25.type !== undefined){
const _errs52 = errors;
if(typeof data25.type !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/type",schemaPath:"#/properties/tools/items/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid9 = _errs52 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data25.function !== undefined){
let data27 = data25.function;
const _errs54 = errors;
if(errors === _errs54){
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
let missing5;
if((data27.name === undefined) && (missing5 = "name")){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function",schemaPath:"#/properties/tools/items/properties/function/required",keyword:"required",params:{missingProperty: missing5},message:"must have required property '"+missing5+"'"}];
return false;
}
else {
if(data27.name !== undefined){
let data28 = data27.name;
const _errs56 = errors;
if(errors === _errs56){
if(typeof data28 === "string"){
if(func2(data28) < 1){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function/name",schemaPath:"#/properties/tools/items/properties/function/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function/name",schemaPath:"#/properties/tools/items/properties/function/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid10 = _errs56 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data27.description !== undefined){
const _errs58 = errors;
if(typeof data27.description !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function/description",schemaPath:"#/properties/tools/items/properties/function/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid10 = _errs58 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data27.parameters !== undefined){
let data30 = data27.parameters;
const _errs60 = errors;
if(!(data30 && typeof data30 == "object" && !Array.isArray(data30))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function/parameters",schemaPath:"#/properties/tools/items/properties/function/properties/parameters/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid10 = _errs60 === errors;
}
else {
var valid10 = true;
}
if(valid10){
if(data27.strict !== undefined){
let data31 = data27.strict;
const _errs62 = errors;
if((typeof data31 !== "boolean") && (data31 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function/strict",schemaPath:"#/properties/tools/items/properties/function/properties/strict/type",keyword:"type",params:{type: schema6.properties.tools.items.properties.function.properties.strict.type},message:"must be boolean,null"}];
return false;
}
var valid10 = _errs62 === errors;
}
else {
var valid10 = true;
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function",schemaPath:"#/properties/tools/items/properties/function/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid9 = _errs54 === errors;
}
else {
var valid9 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3,schemaPath:"#/properties/tools/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid8 = _errs50 === errors;
if(!valid8){
break;
}
}
}
}
var valid0 = _errs48 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tool_choice !== undefined){
let data32 = data.tool_choice;
const _errs64 = errors;
if(((typeof data32 !== "string") && (!(data32 && typeof data32 == "object" && !Array.isArray(data32)))) && (data32 !== null)){
validate21.errors = [{instancePath:instancePath+"/tool_choice",schemaPath:"#/properties/tool_choice/type",keyword:"type",params:{type: schema6.properties.tool_choice.type},message:"must be string,object,null"}];
return false;
}
var valid0 = _errs64 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.parallel_tool_calls !== undefined){
let data33 = data.parallel_tool_calls;
const _errs66 = errors;
if((typeof data33 !== "boolean") && (data33 !== null)){
validate21.errors = [{instancePath:instancePath+"/parallel_tool_calls",schemaPath:"#/properties/parallel_tool_calls/type",keyword:"type",params:{type: schema6.properties.parallel_tool_calls.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs66 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response_format !== undefined){
let data34 = data.response_format;
const _errs68 = errors;
if((!(data34 && typeof data34 == "object" && !Array.isArray(data34))) && (data34 !== null)){
validate21.errors = [{instancePath:instancePath+"/response_format",schemaPath:"#/properties/response_format/type",keyword:"type",params:{type: schema6.properties.response_format.type},message:"must be object,null"}];
return false;
}
if(errors === _errs68){
if(data34 && typeof data34 == "object" && !Array.isArray(data34)){
let missing6;
if((data34.type === undefined) && (missing6 = "type")){
validate21.errors = [{instancePath:instancePath+"/response_format",schemaPath:"#/properties/response_format/required",keyword:"required",params:{missingProperty: missing6},message:"must have required property '"+missing6+"'"}];
return false;
}
else {
if(data34.type !== undefined){
let data35 = data34.type;
const _errs70 = errors;
if(!(((data35 === "text") || (data35 === "json_object")) || (data35 === "json_schema"))){
validate21.errors = [{instancePath:instancePath+"/response_format/type",schemaPath:"#/properties/response_format/properties/type/enum",keyword:"enum",params:{allowedValues: schema6.properties.response_format.properties.type.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid11 = _errs70 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data34.json_schema !== undefined){
let data36 = data34.json_schema;
const _errs71 = errors;
if(errors === _errs71){
if(data36 && typeof data36 == "object" && !Array.isArray(data36)){
if(data36.name !== undefined){
const _errs73 = errors;
if(typeof data36.name !== "string"){
validate21.errors = [{instancePath:instancePath+"/response_format/json_schema/name",schemaPath:"#/properties/response_format/properties/json_schema/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid12 = _errs73 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data36.schema !== undefined){
let data38 = data36.schema;
const _errs75 = errors;
if(!(data38 && typeof data38 == "object" && !Array.isArray(data38))){
validate21.errors = [{instancePath:instancePath+"/response_format/json_schema/schema",schemaPath:"#/properties/response_format/properties/json_schema/properties/schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid12 = _errs75 === errors;
}
else {
var valid12 = true;
}
if(valid12){
if(data36.strict !== undefined){
let data39 = data36.strict;
const _errs77 = errors;
if((typeof data39 !== "boolean") && (data39 !== null)){
validate21.errors = [{instancePath:instancePath+"/response_format/json_schema/strict",schemaPath:"#/properties/response_format/properties/json_schema/properties/strict/type",keyword:"type",params:{type: schema6.properties.response_format.properties.json_schema.properties.strict.type},message:"must be boolean,null"}];
return false;
}
var valid12 = _errs77 === errors;
}
else {
var valid12 = true;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/response_format/json_schema",schemaPath:"#/properties/response_format/properties/json_schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid11 = _errs71 === errors;
}
else {
var valid11 = true;
}
}
}
}
}
var valid0 = _errs68 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.reasoning_effort !== undefined){
let data40 = data.reasoning_effort;
const _errs79 = errors;
if((typeof data40 !== "string") && (data40 !== null)){
validate21.errors = [{instancePath:instancePath+"/reasoning_effort",schemaPath:"#/properties/reasoning_effort/type",keyword:"type",params:{type: schema6.properties.reasoning_effort.type},message:"must be string,null"}];
return false;
}
if(!((((((((data40 === "none") || (data40 === "minimal")) || (data40 === "low")) || (data40 === "medium")) || (data40 === "high")) || (data40 === "xhigh")) || (data40 === "max")) || (data40 === null))){
validate21.errors = [{instancePath:instancePath+"/reasoning_effort",schemaPath:"#/properties/reasoning_effort/enum",keyword:"enum",params:{allowedValues: schema6.properties.reasoning_effort.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs79 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.seed !== undefined){
let data41 = data.seed;
const _errs81 = errors;
if((!((typeof data41 == "number") && (!(data41 % 1) && !isNaN(data41)))) && (data41 !== null)){
validate21.errors = [{instancePath:instancePath+"/seed",schemaPath:"#/properties/seed/type",keyword:"type",params:{type: schema6.properties.seed.type},message:"must be integer,null"}];
return false;
}
var valid0 = _errs81 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.user !== undefined){
const _errs83 = errors;
if(typeof data.user !== "string"){
validate21.errors = [{instancePath:instancePath+"/user",schemaPath:"#/properties/user/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs83 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.safety_identifier !== undefined){
const _errs85 = errors;
if(typeof data.safety_identifier !== "string"){
validate21.errors = [{instancePath:instancePath+"/safety_identifier",schemaPath:"#/properties/safety_identifier/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs85 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}
